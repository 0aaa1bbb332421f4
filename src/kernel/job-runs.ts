import { fileURLToPath } from 'node:url';
import type { Application } from './application.js';

declare module '../database/types.js' {
  interface Database {
    job_runs: JobRunsTable;
  }
}

export interface JobRunsTable {
  /** The job's name (`billing:reconcile`, `usage:report`, `tokens:purge`, …). */
  job: string;
  /** The interval's start by the application's clock (ISO-8601): `floor(now / everyMs) × everyMs`. */
  interval_start: string;
  started_at: string;
  finished_at: string | null;
  /** 1: the run threw (logged); the next interval runs it again. */
  failed: number;
}

/** The scheduled runs' table, migrated by every application (the kernel owns it). */
export const jobRunMigrations = fileURLToPath(new URL('./migrations', import.meta.url));

/** Runs older than this are forgotten when a run is claimed. */
const KEPT_MS = 30 * 86_400_000;

/**
 * Runs `job` for the interval the application's clock is in, unless any instance has: the
 * interval's row in `job_runs` (primary key: job and interval start) lets exactly one in, however
 * many instances schedule it and whenever their timers fire. Resolves with what `run` resolved
 * with, or null when another run had the interval (logged at `debug`; a run, at `info`). A failure
 * is recorded, then thrown on.
 */
export async function runOncePerInterval<T>(
  app: Application,
  job: string,
  everyMs: number,
  run: () => Promise<T>,
): Promise<T | null> {
  const now = app.clock.now();
  const start = new Date(Math.floor(now.getTime() / everyMs) * everyMs).toISOString();
  const claimed = await app.db
    .insertInto('job_runs')
    .values({ job, interval_start: start, started_at: now.toISOString(), finished_at: null, failed: 0 })
    .onConflict((oc) => oc.columns(['job', 'interval_start']).doNothing())
    .executeTakeFirst();
  if (Number(claimed.numInsertedOrUpdatedRows ?? 0) !== 1) {
    app.logger.debug({ job, interval_start: start }, 'scheduled job: another instance has this interval');
    return null;
  }
  const forgotten = new Date(now.getTime() - KEPT_MS).toISOString();
  await app.db
    .deleteFrom('job_runs')
    .where('job', '=', job)
    .where('interval_start', '<', forgotten)
    .execute();
  const finish = (failed: number) =>
    app.db
      .updateTable('job_runs')
      .set({ finished_at: app.clock.now().toISOString(), failed })
      .where('job', '=', job)
      .where('interval_start', '=', start)
      .execute();
  try {
    const result = await run();
    await finish(0);
    app.logger.info({ job, interval_start: start }, 'scheduled job ran');
    return result;
  } catch (err) {
    await finish(1).catch(() => undefined);
    throw err;
  }
}
