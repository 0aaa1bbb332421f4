import { tooManyRequests } from '../kernel/rate-limits/http.js';
import { LeasedLimit } from '../kernel/rate-limits/leased-limit.js';
import type { RateLimitResult } from '../kernel/rate-limits/rate-limit.js';
import type { RateLimits } from '../kernel/rate-limits/rate-limits.js';
import type { VerifiedToken } from '../oauth/guard/verified-token.js';
import { MonthlyQuota, quotaSpent } from './monthly-quota.js';
import type { Plan } from './plan.js';

/** The name of a plan's per-user rate limit (`plan.free`), as the `RateLimit` fields show it. */
export const limitName = (plan: Plan) => `plan.${plan.name.toLowerCase().replace(/[^a-z0-9._-]/g, '-')}`;

/**
 * One plan's limits, counted in memory in leases of the shared store (`LeasedLimit`): per
 * credential and per client when the plan sets them, per user, then the monthly quota. A limit
 * refused throws the 429; the results of the limits consulted are for the `RateLimit` fields.
 */
export class PlanLimits {
  readonly #credential: LeasedLimit | undefined;
  readonly #client: LeasedLimit | undefined;
  readonly #user: LeasedLimit | undefined;
  readonly #quota: MonthlyQuota | undefined;

  constructor(plan: Plan, limits: RateLimits) {
    const name = limitName(plan);
    const leased = (suffix: string, policy: Plan['rateLimit']) =>
      policy && policy.points > 0 ? new LeasedLimit(limits.define(`${name}${suffix}`, policy)) : undefined;
    this.#credential = leased('.credential', plan.credentialLimit);
    this.#client = leased('.client', plan.clientLimit);
    this.#user = leased('', plan.rateLimit);
    this.#quota =
      plan.monthlyQuota === null ? undefined : new MonthlyQuota(`${name}.month`, plan.monthlyQuota, limits);
  }

  get empty(): boolean {
    return !this.#credential && !this.#client && !this.#user && !this.#quota;
  }

  /** Counts one call of `userId` with `token` at `now` (application-clock ms). */
  async consume(userId: string, token: VerifiedToken, now: number): Promise<RateLimitResult[]> {
    const results: RateLimitResult[] = [];
    const check = async (limit: LeasedLimit | undefined, subject: string) => {
      if (limit === undefined) return;
      const result = await limit.consume(subject, now);
      results.push(result);
      if (!result.allowed) throw tooManyRequests(results);
    };
    await check(this.#credential, `${token.current.kind ?? 'token'}:${token.id}`);
    if (token.clientId !== '') await check(this.#client, `${userId}:${token.clientId}`);
    await check(this.#user, userId);
    // Counted only for a call the rate limits let through.
    if (this.#quota !== undefined) {
      const result = await this.#quota.consume(userId, now);
      results.push(result);
      if (!result.allowed) throw quotaSpent(results);
    }
    return results;
  }
}
