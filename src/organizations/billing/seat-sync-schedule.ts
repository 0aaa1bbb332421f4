import type { Application } from '../../kernel/application.js';
import { runEvery } from '../../kernel/interval-job.js';
import { runOncePerInterval } from '../../kernel/job-runs.js';
import { type SeatRetryReport, SeatSync } from './seat-sync.js';

export interface SeatSyncRetryOptions {
  /** How often (ms). Default: every five minutes. */
  everyMs?: number;
  /** The first run, this long after scheduling (ms). Default: one minute (one interval if shorter). */
  firstAfterMs?: number;
}

const EVERY_MS = 5 * 60_000;

/**
 * One pass over the seat syncs the provider failed (job `organizations:seats` in `job_runs`): null
 * when another instance had this interval. Failures are logged and left pending for the next.
 */
export async function retrySeatSyncsOnce(
  app: Application,
  options: SeatSyncRetryOptions = {},
): Promise<SeatRetryReport | null> {
  return runOncePerInterval(app, 'organizations:seats', options.everyMs ?? EVERY_MS, async () => {
    const report = await app.container.make(SeatSync).retryPending();
    if (report.failed > 0) app.logger.warn(report, 'Seat sync still failing; retried next time');
    else if (report.synced > 0) app.logger.info(report, 'Pending seat syncs done');
    return report;
  });
}

/**
 * Retries, on an interval in this process, every seat sync the billing provider failed, so the
 * subscription's seats come right without another membership change (docs/organizations.md#seats).
 * Every instance may schedule it: one pass per interval across all of them. Returns a function
 * that stops it.
 *
 * @example
 * scheduleSeatSyncRetries(app, { everyMs: 5 * 60_000 });
 */
export function scheduleSeatSyncRetries(app: Application, options: SeatSyncRetryOptions = {}): () => void {
  return runEvery(app, () => retrySeatSyncsOnce(app, options), {
    everyMs: options.everyMs ?? EVERY_MS,
    firstAfterMs: options.firstAfterMs,
    failure: 'Seat sync retries failed; tried again next time',
  });
}
