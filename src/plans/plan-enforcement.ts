import type { Context } from 'hono';
import type { Guard } from '../auth/guards.js';
import type { User } from '../auth/user.js';
import { type Clock, millis } from '../core/clock.js';
import { bindToken } from '../oauth/guard/user-resolver.js';
import type { VerifiedToken } from '../oauth/guard/verified-token.js';
import { presetRateLimitHeaders } from '../rate-limits/http.js';
import type { RateLimitResult } from '../rate-limits/rate-limit.js';
import type { RateLimits } from '../rate-limits/rate-limits.js';
import type { Metering } from './metering/metering.js';
import type { Plan, PlanCatalog } from './plan.js';
import { type BoundLimits, PlanLimits } from './plan-limits.js';
import type { PlanResolver, PlanStanding } from './plan-resolver.js';
import { withinPlan } from './plan-scopes.js';

/** What the calls of one verified token reuse while its user's standing stays the same. */
interface Binding {
  readonly standing: PlanStanding;
  readonly userId: User['id'];
  /** The token within the plan's scopes. */
  readonly narrowed: VerifiedToken;
  readonly limits: BoundLimits | undefined;
}

/**
 * What `auth:api` does on top of the token guard once plans are declared: narrows the request's
 * credential to the plan's scopes, counts the request against the plan's limits (per credential,
 * per client, per user, per month: `PlanLimits`) and meters it under `calls` — so an OAuth token, a
 * personal token and an API key of one user share one counter. The first-party `app_token`
 * cookie (a transient token) and tokens without a user are left alone.
 */
export class PlanEnforcement {
  readonly #limits = new Map<Plan, PlanLimits>();
  /** Per token object (the guard keeps one per token between requests). */
  readonly #bindings = new WeakMap<VerifiedToken, Binding>();
  readonly #now: () => number;

  constructor(
    readonly resolver: PlanResolver,
    catalog: PlanCatalog,
    limits: RateLimits,
    clock: Clock,
    private readonly metering: Metering,
  ) {
    this.#now = millis(clock);
    for (const plan of catalog.plans.values()) {
      const planLimits = new PlanLimits(plan, limits);
      if (!planLimits.empty) this.#limits.set(plan, planLimits);
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
    if (standing !== undefined) return this.#enforce(c, user, token, this.#binding(user, token, standing));
    return this.resolver
      .standing(id)
      .then((s) => this.#enforce(c, user, token, this.#binding(user, token, s)));
  }

  /** The token's binding to this standing, made on its first call under it. */
  #binding(user: User, token: VerifiedToken, standing: PlanStanding): Binding {
    const known = this.#bindings.get(token);
    if (known !== undefined && known.standing === standing && known.userId === user.id) return known;
    const binding: Binding = {
      standing,
      userId: user.id,
      narrowed: withinPlan(token, standing.plan),
      limits: this.#limits.get(standing.plan)?.bind(String(user.id), token),
    };
    this.#bindings.set(token, binding);
    return binding;
  }

  #enforce(c: Context, user: User, token: VerifiedToken, binding: Binding): User | Promise<User> {
    const { narrowed, limits } = binding;
    if (narrowed !== token) c.set('accessToken', narrowed);
    // The guard keeps one model per token between requests: bind it every time, so `tokenCan()`
    // follows the plan both ways (narrowed after a downgrade, whole again after an upgrade).
    bindToken(user, narrowed);
    const now = this.#now();
    if (limits === undefined) return this.#count(c, user, now);
    const results = limits.consume(now);
    if (results instanceof Promise) return results.then((r) => this.#count(c, user, now, r));
    return this.#count(c, user, now, results);
  }

  /** The `RateLimit` fields, and the call metered under `calls`. */
  #count(c: Context, user: User, now: number, results?: RateLimitResult[]): User | Promise<User> {
    if (results !== undefined) presetRateLimitHeaders(c, results);
    c.set('callCounted', true);
    const counted = this.metering.count(c, 'calls', 1, user.id, now);
    return counted === undefined ? user : counted.then(() => user);
  }
}
