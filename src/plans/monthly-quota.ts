import type { Clock } from '../core/clock.js';
import { HttpError } from '../core/errors.js';
import { rateLimitHeaders } from '../kernel/rate-limits/http.js';
import type { RateLimit, RateLimitResult } from '../kernel/rate-limits/rate-limit.js';
import type { RateLimits } from '../kernel/rate-limits/rate-limits.js';

/** Longer than any month: each month has its own key, so its counter need only outlive it. */
const WINDOW_SECONDS = 32 * 86_400;

/**
 * A plan's calls per calendar month (UTC, on the application clock), per user: one counter per
 * user and month in the shared rate-limit store, so it holds across instances. What it reports
 * is the month: `w` its length, `t` the seconds until the next one begins.
 */
export class MonthlyQuota {
  readonly #limit: RateLimit;

  constructor(
    readonly name: string,
    readonly calls: number,
    limits: RateLimits,
    private readonly clock: Clock,
  ) {
    this.#limit = limits.define(name, { points: calls, durationSeconds: WINDOW_SECONDS });
  }

  async consume(subject: string): Promise<RateLimitResult> {
    const now = this.clock.now();
    const start = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1);
    const end = Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1);
    const month = new Date(start).toISOString().slice(0, 7);
    const result = await this.#limit.consume(`${subject}:${month}`);
    return {
      ...result,
      policy: { points: this.calls, durationSeconds: (end - start) / 1000 },
      resetSeconds: Math.max(1, Math.ceil((end - now.getTime()) / 1000)),
    };
  }
}

/** 429 for a spent monthly quota, with the fields of every limit consulted. */
export function quotaSpent(results: readonly RateLimitResult[]): HttpError {
  return new HttpError(429, 'The monthly quota of your plan is used up.', {
    headers: rateLimitHeaders(results),
  });
}
