import type { Logger } from './logger.js';

/**
 * A warning anyone can cause (an unsigned webhook, say): the first is logged, then at most one a
 * minute, carrying how many were left out since the last line (`suppressed`). A flood costs a line
 * a minute, not a line a request.
 */
export class SampledWarning {
  #suppressed = 0;
  #nextAt = 0;

  constructor(
    private readonly message: string,
    private readonly intervalMs = 60_000,
    private readonly now: () => number = Date.now,
  ) {}

  log(logger: Logger, fields: Record<string, unknown>): void {
    const now = this.now();
    if (now < this.#nextAt) {
      this.#suppressed++;
      return;
    }
    const suppressed = this.#suppressed;
    this.#suppressed = 0;
    this.#nextAt = now + this.intervalMs;
    logger.warn(suppressed > 0 ? { ...fields, suppressed } : fields, this.message);
  }
}
