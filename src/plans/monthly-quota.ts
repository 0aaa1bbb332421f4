import { HttpError } from '../core/errors.js';
import { rateLimitHeaders } from '../rate-limits/http.js';
import type { LeasedLimit } from '../rate-limits/leased-limit.js';
import type { RateLimitResult } from '../rate-limits/rate-limit.js';
import type { RateLimits } from '../rate-limits/rate-limits.js';

/** Longer than any month: each month has its own key, so its counter need only outlive it. */
const WINDOW_SECONDS = 32 * 86_400;

/** The calendar month (UTC) of an instant: its key and bounds, made once per month. */
class Month {
  key = '';
  start = 0;
  end = 0;

  at(now: number): this {
    if (now >= this.start && now < this.end) return this;
    const d = new Date(now);
    this.start = Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1);
    this.end = Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1);
    this.key = new Date(this.start).toISOString().slice(0, 7);
    return this;
  }
}

/**
 * A plan's calls per calendar month (UTC, on the application clock), per user: one counter per
 * user and month in the shared rate-limit store, claimed in leases (`LeasedLimit`), so it holds
 * across instances without a store round trip per call. What it reports is the month: `w` its
 * length, `t` the seconds until the next one begins.
 */
export class MonthlyQuota {
  readonly #limit: LeasedLimit;
  readonly #month = new Month();

  constructor(
    readonly name: string,
    readonly calls: number,
    limits: RateLimits,
  ) {
    this.#limit = limits.leased(limits.define(name, { points: calls, durationSeconds: WINDOW_SECONDS }));
  }

  /** Counts one call at `now` (application-clock ms). */
  consume(subject: string, now: number): RateLimitResult | Promise<RateLimitResult> {
    const month = this.#month.at(now);
    const { start, end } = month;
    const result = this.#limit.consume(`${subject}:${month.key}`, now);
    const inMonth = (r: RateLimitResult): RateLimitResult => ({
      ...r,
      policy: { points: this.calls, durationSeconds: (end - start) / 1000 },
      resetSeconds: Math.max(1, Math.ceil((end - now) / 1000)),
    });
    return result instanceof Promise ? result.then(inMonth) : inMonth(result);
  }
}

/** 429 for a spent monthly quota, with the fields of every limit consulted. */
export function quotaSpent(results: readonly RateLimitResult[]): HttpError {
  return new HttpError(429, 'The monthly quota of your plan is used up.', {
    headers: rateLimitHeaders(results),
  });
}
