import { Counter, Histogram } from 'prom-client';
import type { Application } from '../kernel/application.js';
import { Metrics } from '../observability/metrics.js';
import { WebhookEvents } from './webhooks/webhook-events.js';

/** From seconds to a day: a provider retries a failed delivery for days. */
const LAG_BUCKETS = [0.5, 1, 5, 10, 30, 60, 300, 900, 3600, 21_600, 86_400];

/**
 * With metrics on, counts the webhook requests by event type and outcome, and the lag of each
 * verified one (now, by the application's clock, minus when the provider created the event).
 */
export function countWebhooks(app: Application): void {
  if (!app.container.has(Metrics)) return;
  const { registry } = app.container.make(Metrics);
  const events = new Counter({
    name: 'tollgate_billing_webhook_events_total',
    help: 'Billing webhook requests, by event type and outcome (handled, ignored, duplicate, retry, failed, refused).',
    labelNames: ['type', 'outcome'] as const,
    registers: [registry],
  });
  const lag = new Histogram({
    name: 'tollgate_billing_webhook_lag_seconds',
    help: 'Seconds from the provider creating a webhook event to its verified delivery here.',
    buckets: LAG_BUCKETS,
    registers: [registry],
  });
  app.container.make(WebhookEvents).observers.push(({ type, outcome, createdAt }) => {
    events.inc({ type, outcome });
    const seconds = createdAt ? (app.clock.now().getTime() - createdAt.getTime()) / 1000 : Number.NaN;
    if (Number.isFinite(seconds)) lag.observe(Math.max(0, seconds));
  });
}
