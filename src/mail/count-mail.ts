import { Counter, Gauge } from 'prom-client';
import type { Application } from '../kernel/application.js';
import { Metrics } from '../observability/metrics.js';
import type { Outbox } from './outbox.js';
import type { OutboxWorker } from './outbox-worker.js';

const STATES = ['held', 'pending', 'sending', 'failed'] as const;

/** With metrics on, the outbox's depth by state and the worker's refused sends, both read when scraped. */
export function countMail(app: Application, outbox: Outbox, worker: OutboxWorker | undefined): void {
  if (!app.container.has(Metrics)) return;
  const { registry } = app.container.make(Metrics);
  new Gauge({
    name: 'tollgate_mail_outbox_depth',
    help: 'Mails in the outbox not sent yet, by state (held, pending, sending, failed).',
    labelNames: ['state'] as const,
    registers: [registry],
    async collect() {
      const depth = await outbox.depth();
      for (const state of STATES) this.set({ state }, depth[state] ?? 0);
    },
  });
  new Counter({
    name: 'tollgate_mail_send_failures_total',
    help: 'Mail sends the SMTP server refused or that failed (each attempt).',
    registers: [registry],
    collect() {
      this.reset();
      this.inc(worker?.refusals ?? 0);
    },
  });
}
