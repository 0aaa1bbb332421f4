import type { Context } from 'hono';
import type { Guard } from '../auth/guards.js';
import type { User } from '../auth/user.js';
import type { Clock } from '../core/clock.js';
import { rateLimitHeaders, tooManyRequests } from '../kernel/rate-limits/http.js';
import type { RateLimit, RateLimitResult } from '../kernel/rate-limits/rate-limit.js';
import type { RateLimits } from '../kernel/rate-limits/rate-limits.js';
import { bindToken } from '../oauth/guard/user-resolver.js';
import { MonthlyQuota, quotaSpent } from './monthly-quota.js';
import type { Plan, PlanCatalog } from './plan.js';
import type { PlanResolver } from './plan-resolver.js';
import { withinPlan } from './plan-scopes.js';

/** The name of a plan's per-user rate limit (`plan.free`), as the `RateLimit` fields show it. */
export const limitName = (plan: Plan) => `plan.${plan.name.toLowerCase().replace(/[^a-z0-9._-]/g, '-')}`;

/**
 * What `auth:api` does on top of the token guard once plans are declared: narrows the request's
 * credential to the plan's scopes and counts the request against the plan's rate limit and
 * monthly quota, per user
 * — so an OAuth token, a personal token and an API key of one user share one counter. The
 * first-party `app_token` cookie (a transient token) and tokens without a user are left alone.
 */
export class PlanEnforcement {
  readonly #limits = new Map<Plan, RateLimit>();
  readonly #quotas = new Map<Plan, MonthlyQuota>();

  constructor(
    readonly resolver: PlanResolver,
    catalog: PlanCatalog,
    limits: RateLimits,
    clock: Clock,
  ) {
    for (const plan of catalog.plans.values()) {
      if (plan.rateLimit && plan.rateLimit.points > 0)
        this.#limits.set(plan, limits.define(limitName(plan), plan.rateLimit));
      if (plan.monthlyQuota !== null)
        this.#quotas.set(
          plan,
          new MonthlyQuota(`${limitName(plan)}.month`, plan.monthlyQuota, limits, clock),
        );
    }
  }

  /** The `api` guard, with the plan applied to every user it finds. */
  wrap(guard: Guard): Guard {
    return (c) => {
      const user = guard(c);
      return user instanceof Promise ? user.then((u) => this.#apply(c, u)) : this.#apply(c, user);
    };
  }

  #apply(c: Context, user: User | undefined): User | undefined | Promise<User | undefined> {
    const token = c.get('accessToken');
    if (user === undefined || token === undefined || token.id === 'transient') return user;
    const id = Number(user.id);
    const standing = this.resolver.cached(id);
    if (standing !== undefined) return this.#enforce(c, user, standing.plan);
    return this.resolver.standing(id).then((s) => this.#enforce(c, user, s.plan));
  }

  async #enforce(c: Context, user: User, plan: Plan): Promise<User> {
    const token = c.get('accessToken')!;
    const narrowed = withinPlan(token, plan);
    if (narrowed !== token) c.set('accessToken', narrowed);
    // The guard keeps one model per token between requests: bind it every time, so `tokenCan()`
    // follows the plan both ways (narrowed after a downgrade, whole again after an upgrade).
    bindToken(user, narrowed);
    const limit = this.#limits.get(plan);
    const quota = this.#quotas.get(plan);
    if (limit === undefined && quota === undefined) return user;
    const results: RateLimitResult[] = [];
    if (limit !== undefined) {
      const result = await limit.consume(String(user.id));
      if (!result.allowed) throw tooManyRequests([result]);
      results.push(result);
    }
    // Counted only for a call the rate limit let through.
    if (quota !== undefined) {
      const result = await quota.consume(String(user.id));
      results.push(result);
      if (!result.allowed) throw quotaSpent(results);
    }
    for (const [name, value] of Object.entries(rateLimitHeaders(results))) c.header(name, value);
    return user;
  }
}
