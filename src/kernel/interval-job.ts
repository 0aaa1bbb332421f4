import type { Application } from './application.js';

export interface IntervalJobOptions {
  /** How often (ms). */
  everyMs: number;
  /**
   * The first run, this long after scheduling (ms): soon after a restart. Default: one minute, or
   * one interval when that is shorter.
   */
  firstAfterMs?: number;
  /** Logged at `error`, with the error's message, when a run fails. */
  failure: string;
}

/**
 * Runs `job` every `everyMs` in this process, the first time `firstAfterMs` after scheduling: a run
 * still going when the next is due is not doubled, a failed run is logged and the next tick tries
 * again, and the timers stop (the running job awaited) when the application closes. Returns a
 * function that stops it.
 */
export function runEvery(
  app: Application,
  job: () => Promise<unknown>,
  options: IntervalJobOptions,
): () => void {
  let running: Promise<void> | null = null;
  const tick = () => {
    running ??= job()
      .then(() => undefined)
      .catch((err: unknown) => app.logger.error({ err: (err as Error).message }, options.failure))
      .finally(() => {
        running = null;
      });
  };
  const first = setTimeout(tick, options.firstAfterMs ?? Math.min(60_000, options.everyMs));
  const timer = setInterval(tick, options.everyMs);
  first.unref();
  timer.unref();
  const stop = () => {
    clearTimeout(first);
    clearInterval(timer);
  };
  app.onClose(async () => {
    stop();
    await running;
  });
  return stop;
}
