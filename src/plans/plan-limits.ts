import { tooManyRequests } from '../kernel/rate-limits/http.js';
import type { RateLimitResult } from '../kernel/rate-limits/rate-limit.js';
import type { RateLimits } from '../kernel/rate-limits/rate-limits.js';
import type { VerifiedToken } from '../oauth/guard/verified-token.js';
import { MonthlyQuota, quotaSpent } from './monthly-quota.js';
import type { Plan } from './plan.js';

/** The name of a plan's per-user rate limit (`plan.free`), as the `RateLimit` fields show it. */
export const limitName = (plan: Plan) => `plan.${plan.name.toLowerCase().replace(/[^a-z0-9._-]/g, '-')}`;

type Answer = RateLimitResult | Promise<RateLimitResult>;

/** One limit of a plan: its answer for a call, or undefined when it does not apply to the call. */
interface Check {
  consume(userId: string, token: VerifiedToken, now: number): Answer | undefined;
  /** The quota answers a spent month with its own message. */
  readonly quota: boolean;
}

/**
 * One plan's limits, counted in memory in leases of the shared store (`LeasedLimit`): per
 * credential and per client when the plan sets them, per user, then the monthly quota (counted
 * only for a call the rate limits let through). A refusal throws the 429. Synchronous while every
 * lease lasts, so the guard answers without a promise.
 */
export class PlanLimits {
  readonly #checks: Check[] = [];

  constructor(plan: Plan, limits: RateLimits) {
    const name = limitName(plan);
    const leased = (suffix: string, policy: Plan['rateLimit']) =>
      policy && policy.points > 0 ? limits.leased(limits.define(`${name}${suffix}`, policy)) : undefined;
    const credential = leased('.credential', plan.credentialLimit);
    if (credential)
      this.#checks.push({
        quota: false,
        consume: (_, token, now) => credential.consume(`${token.current.kind ?? 'token'}:${token.id}`, now),
      });
    const client = leased('.client', plan.clientLimit);
    if (client)
      this.#checks.push({
        quota: false,
        consume: (userId, token, now) =>
          token.clientId === '' ? undefined : client.consume(`${userId}:${token.clientId}`, now),
      });
    const user = leased('', plan.rateLimit);
    if (user) this.#checks.push({ quota: false, consume: (userId, _, now) => user.consume(userId, now) });
    if (plan.monthlyQuota !== null) {
      const quota = new MonthlyQuota(`${name}.month`, plan.monthlyQuota, limits);
      this.#checks.push({ quota: true, consume: (userId, _, now) => quota.consume(userId, now) });
    }
  }

  get empty(): boolean {
    return this.#checks.length === 0;
  }

  /** Counts one call of `userId` with `token` at `now` (application-clock ms): the results consulted. */
  consume(
    userId: string,
    token: VerifiedToken,
    now: number,
    results: RateLimitResult[] = [],
    from = 0,
  ): RateLimitResult[] | Promise<RateLimitResult[]> {
    for (let i = from; i < this.#checks.length; i++) {
      const check = this.#checks[i]!;
      const answer = check.consume(userId, token, now);
      if (answer === undefined) continue;
      if (answer instanceof Promise)
        return answer.then((result) => {
          settle(result, check, results);
          return this.consume(userId, token, now, results, i + 1);
        });
      settle(answer, check, results);
    }
    return results;
  }
}

function settle(result: RateLimitResult, check: Check, results: RateLimitResult[]): void {
  results.push(result);
  if (!result.allowed) throw check.quota ? quotaSpent(results) : tooManyRequests(results);
}
