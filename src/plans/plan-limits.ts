import type { VerifiedToken } from '../oauth/index.js';
import { tooManyRequests } from '../rate-limits/http.js';
import type { Lease, LeasedLimit } from '../rate-limits/leased-limit.js';
import type { RateLimitResult } from '../rate-limits/rate-limit.js';
import type { RateLimits } from '../rate-limits/rate-limits.js';
import { MonthlyQuota, quotaSpent } from './monthly-quota.js';
import type { Plan } from './plan.js';

/** The name of a plan's per-user rate limit (`plan.free`), as the `RateLimit` fields show it. */
export const limitName = (plan: Plan) => `plan.${plan.name.toLowerCase().replace(/[^a-z0-9._-]/g, '-')}`;

type Answer = RateLimitResult | Promise<RateLimitResult>;

/** One limit of a plan, for one credential of one user: its answer for each of their calls. */
interface BoundCheck {
  consume(now: number): Answer;
  /** The quota answers a spent month with its own message. */
  readonly quota: boolean;
}

/** One limit of a plan: bound to a credential, or undefined when it does not apply to it. */
type Check = (holder: string, token: VerifiedToken) => BoundCheck | undefined;

/**
 * A leased limit on one subject. It keeps the subject's lease between calls, so a call the lease
 * answers looks nothing up.
 */
class LeasedCheck implements BoundCheck {
  readonly quota = false;
  #held: Lease | undefined;

  constructor(
    private readonly limit: LeasedLimit,
    private readonly subject: string,
  ) {}

  consume(now: number): Answer {
    const answer = this.#held && this.limit.consumeHeld(this.#held, now);
    if (answer !== undefined) return answer;
    const result = this.limit.consume(this.subject, now);
    this.#held = this.limit.held(this.subject);
    return result;
  }
}

/**
 * One plan's limits, counted in memory in leases of the shared store (`LeasedLimit`): per
 * credential and per client when the plan sets them, per holder (the user, or the organization
 * the credential acts for: `planHolderOf`), then the monthly quota (counted
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
      this.#checks.push(
        (_, token) => new LeasedCheck(credential, `${token.current.kind ?? 'token'}:${token.id}`),
      );
    const client = leased('.client', plan.clientLimit);
    if (client)
      this.#checks.push((holder, token) =>
        token.clientId === '' ? undefined : new LeasedCheck(client, `${holder}:${token.clientId}`),
      );
    const user = leased('', plan.rateLimit);
    if (user) this.#checks.push((holder) => new LeasedCheck(user, holder));
    if (plan.monthlyQuota !== null) {
      const quota = new MonthlyQuota(`${name}.month`, plan.monthlyQuota, limits);
      this.#checks.push((holder) => ({ quota: true, consume: (now) => quota.consume(holder, now) }));
    }
  }

  get empty(): boolean {
    return this.#checks.length === 0;
  }

  /** The limits that apply to the calls of `holder` (its subject) with `token`, in the order they count. */
  bind(holder: string, token: VerifiedToken): BoundLimits {
    const checks: BoundCheck[] = [];
    for (const check of this.#checks) {
      const bound = check(holder, token);
      if (bound !== undefined) checks.push(bound);
    }
    return new BoundLimits(checks);
  }
}

/** A plan's limits for one credential of one user (`PlanLimits.bind`). */
export class BoundLimits {
  constructor(private readonly checks: readonly BoundCheck[]) {}

  /** Counts one call at `now` (application-clock ms): the results consulted. */
  consume(
    now: number,
    results?: RateLimitResult[],
    from = 0,
  ): RateLimitResult[] | Promise<RateLimitResult[]> {
    let consulted = results;
    for (let i = from; i < this.checks.length; i++) {
      const check = this.checks[i]!;
      const answer = check.consume(now);
      if (answer instanceof Promise)
        return answer.then((result) => this.consume(now, settle(result, check, consulted), i + 1));
      consulted = settle(answer, check, consulted);
    }
    return consulted ?? [];
  }
}

/** The results with `result` added; a refusal throws the 429. */
function settle(result: RateLimitResult, check: BoundCheck, results?: RateLimitResult[]): RateLimitResult[] {
  // The first starts a list of one: `[]` and a push would reserve room for seventeen.
  const consulted = results === undefined ? [result] : results;
  if (results !== undefined) results.push(result);
  if (!result.allowed) throw check.quota ? quotaSpent(consulted) : tooManyRequests(consulted);
  return consulted;
}
