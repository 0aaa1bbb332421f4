import type { Application } from '../../kernel/application.js';
import { runEvery } from '../../kernel/interval-job.js';
import { runOncePerInterval } from '../../kernel/job-runs.js';
import { OAuthStoreKey, type PurgeCounts } from '../stores/contracts.js';

export interface TokenPurgeScheduleOptions {
  /** How often (ms). Default: daily. */
  everyMs?: number;
  /** The first run, this long after scheduling (ms): soon after a restart. Default: one minute (one interval if shorter). */
  firstAfterMs?: number;
  /** Keep what expired within this many hours (`tollgate purge --hours`). Default: 168 (a week). */
  keepHours?: number;
}

const DAY_MS = 86_400_000;

/**
 * One scheduled `tollgate purge` (revoked and expired tokens, codes and keys, paced), if this
 * instance gets the interval (its row in `job_runs`, job `tokens:purge`): null when another
 * instance has run it in this interval.
 */
export function purgeTokensOnce(
  app: Application,
  options: TokenPurgeScheduleOptions = {},
): Promise<PurgeCounts | null> {
  return runOncePerInterval(app, 'tokens:purge', options.everyMs ?? DAY_MS, async () => {
    const keep = (options.keepHours ?? 168) * 3_600_000;
    const before = new Date(app.clock.now().getTime() - keep).toISOString();
    const counts = await app.container
      .make(OAuthStoreKey)
      .purge({ revoked: true, expired: true, before, paced: true });
    app.logger.info(counts, 'revoked and expired tokens purged');
    return counts;
  });
}

/**
 * Runs `tollgate purge` on an interval in this process (default daily). Every instance may
 * schedule it: one run per interval across all of them (`purgeTokensOnce`). Returns a function
 * that stops it; closing the application stops it too.
 *
 * @example
 * await app.boot();
 * scheduleTokenPurge(app);
 */
export function scheduleTokenPurge(app: Application, options: TokenPurgeScheduleOptions = {}): () => void {
  return runEvery(app, () => purgeTokensOnce(app, options), {
    everyMs: options.everyMs ?? DAY_MS,
    firstAfterMs: options.firstAfterMs,
    failure: 'token purge failed; tried again next time',
  });
}
