import type { Application } from '../../kernel/application.js';
import { runEvery } from '../../kernel/interval-job.js';
import { runOncePerInterval } from '../../kernel/job-runs.js';
import type { ReconcileReport } from './drift.js';
import { Reconciler } from './reconciler.js';

export interface ReconcileScheduleOptions {
  /** How often (ms). Default: every hour. */
  everyMs?: number;
  /** The first run, this long after scheduling (ms): soon after a restart. Default: one minute (one interval if shorter). */
  firstAfterMs?: number;
  /** Repair what is found (`billing:reconcile --fix`). Default: true. */
  fix?: boolean;
  /** The name an adopted subscription gets when the provider keeps none (`--name`). Default: `default`. */
  adoptAs?: string;
}

/**
 * One scheduled `billing:reconcile` run, if this instance gets the interval (its row in `job_runs`,
 * job `billing:reconcile`): null when another instance has run it in this interval.
 */
export function reconcileOnce(
  app: Application,
  options: ReconcileScheduleOptions = {},
): Promise<ReconcileReport | null> {
  return runOncePerInterval(app, 'billing:reconcile', options.everyMs ?? 3_600_000, () =>
    reconcileNow(app, options),
  );
}

async function reconcileNow(app: Application, options: ReconcileScheduleOptions): Promise<ReconcileReport> {
  const report = await app.container
    .make(Reconciler)
    .run({ fix: options.fix ?? true, adoptAs: options.adoptAs ?? 'default' });
  const unfixed = report.drift.filter((d) => !d.fixed);
  const fields = { owners: report.owners, drift: report.drift.length, unfixed: unfixed.length };
  if (unfixed.length > 0)
    app.logger.warn(
      { ...fields, kinds: unfixed.map((d) => d.kind) },
      'billing:reconcile found drift it could not repair',
    );
  else if (report.drift.length > 0) app.logger.info(fields, 'billing:reconcile repaired drift');
  return report;
}

/**
 * Runs `billing:reconcile --fix` on an interval in this process, so rows a lost webhook left
 * behind (a crash, a provider that gave up retrying) are repaired without an operator. Every
 * instance may schedule it: one run per interval across all of them (`reconcileOnce`). A failed
 * run is logged and tried at the next tick; the timers stop when the application closes.
 * Returns a function that stops it.
 *
 * @example
 * await app.boot();
 * scheduleReconcile(app, { everyMs: 60 * 60_000 });
 */
export function scheduleReconcile(app: Application, options: ReconcileScheduleOptions = {}): () => void {
  return runEvery(app, () => reconcileOnce(app, options), {
    everyMs: options.everyMs ?? 3_600_000,
    firstAfterMs: options.firstAfterMs,
    failure: 'billing:reconcile failed; tried again next time',
  });
}
