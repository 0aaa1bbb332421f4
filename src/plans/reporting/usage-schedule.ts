import type { Application } from '../../kernel/application.js';
import { runEvery } from '../../kernel/interval-job.js';
import { runOncePerInterval } from '../../kernel/job-runs.js';
import { UsageReporter, type UsageReportLine } from './usage-reporter.js';

export interface UsageScheduleOptions {
  /** How often to report (ms). Default: every 15 minutes. */
  everyMs?: number;
  /** The first run, this long after scheduling (ms): soon after a restart. Default: one minute (one interval if shorter). */
  firstAfterMs?: number;
}

const EVERY_MS = 15 * 60_000;

/**
 * One scheduled usage report, if this instance gets the interval (its row in `job_runs`, job
 * `usage:report`): null when another instance has run it in this interval. What it did is
 * logged; a user whose report failed is tried again by the next run.
 */
export function reportUsageOnce(
  app: Application,
  options: UsageScheduleOptions = {},
): Promise<UsageReportLine[] | null> {
  return runOncePerInterval(app, 'usage:report', options.everyMs ?? EVERY_MS, () => reportUsageNow(app));
}

async function reportUsageNow(app: Application): Promise<UsageReportLine[]> {
  const lines = await app.container.make(UsageReporter).report();
  const sent = lines.filter((l) => l.status === 'reported').length;
  const failed = lines.filter((l) => l.status === 'failed');
  if (failed.length > 0)
    app.logger.warn(
      { users: failed.length, reasons: [...new Set(failed.map((l) => l.reason))] },
      'Metered usage of some users not reported; tried again next time',
    );
  if (sent > 0) app.logger.info({ users: sent }, 'Metered usage reported');
  return lines;
}

/**
 * Reports metered usage on an interval in this process (the scheduler hook; `runEvery`'s rules).
 * Every instance may schedule it: one run per interval across all of them (`reportUsageOnce`).
 * Should two runs overlap anyway (a manual `tollgate usage:report` beside it), the reporter's
 * per-user lock and its record of what was sent keep the provider's count exact. Returns a
 * function that stops it.
 *
 * @example
 * await app.boot();
 * scheduleUsageReports(app, { everyMs: 5 * 60_000 });
 */
export function scheduleUsageReports(app: Application, options: UsageScheduleOptions = {}): () => void {
  return runEvery(app, () => reportUsageOnce(app, options), {
    everyMs: options.everyMs ?? EVERY_MS,
    firstAfterMs: options.firstAfterMs,
    failure: 'Metered usage report failed; retried next time',
  });
}
