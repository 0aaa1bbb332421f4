import type { Application } from '../../kernel/application.js';
import { UsageReporter } from './usage-reporter.js';

export interface UsageScheduleOptions {
  /** How often to report (ms). Default: every 15 minutes. */
  everyMs?: number;
}

/**
 * Reports metered usage on an interval in this process (the scheduler hook): a run that is still
 * going when the next is due is not doubled, a failed run is logged and retried at the next tick,
 * and the timer stops when the application closes. Several instances may each schedule it: the
 * reporter's per-user lock and its record of what was sent keep the provider's count exact.
 * Returns a function that stops it.
 *
 * @example
 * await app.boot();
 * scheduleUsageReports(app, { everyMs: 5 * 60_000 });
 */
export function scheduleUsageReports(app: Application, options: UsageScheduleOptions = {}): () => void {
  const reporter = app.container.make(UsageReporter);
  let running: Promise<void> | null = null;
  const tick = () => {
    running ??= reporter
      .report()
      .then((lines) => {
        const sent = lines.filter((l) => l.status === 'reported');
        if (sent.length > 0) app.logger.info({ users: sent.length }, 'Metered usage reported');
      })
      .catch((err: unknown) => {
        app.logger.error({ err: (err as Error).message }, 'Metered usage report failed; retried next time');
      })
      .finally(() => {
        running = null;
      });
  };
  const timer = setInterval(tick, options.everyMs ?? 15 * 60_000);
  timer.unref();
  const stop = () => clearInterval(timer);
  app.onClose(async () => {
    stop();
    await running;
  });
  return stop;
}
