import type { Context } from 'hono';
import type { User } from '../auth/user.js';
import { type Clock, millis } from '../core/clock.js';
import { CredentialSlot, type GuardStep, type VerifiedToken } from '../oauth/index.js';
import { presetRateLimitHeaders } from '../rate-limits/http.js';
import type { RateLimitResult } from '../rate-limits/rate-limit.js';
import type { RateLimits } from '../rate-limits/rate-limits.js';
import type { Metering } from './metering/metering.js';
import type { Plan, PlanCatalog } from './plan.js';
import { ORGANIZATION, planHolderOf } from './plan-holder.js';
import { type BoundLimits, PlanLimits } from './plan-limits.js';
import type { PlanResolver, PlanStanding } from './plan-resolver.js';
import { withinPlan } from './plan-scopes.js';

/** What the calls of one verified credential reuse while its holder's standing stays the same. */
interface Binding {
  readonly standing: PlanStanding;
  readonly userId: User['id'];
  /** The token within the plan's scopes. */
  readonly narrowed: VerifiedToken;
  readonly limits: BoundLimits | undefined;
}

const bindings = new CredentialSlot<Binding>();

/**
 * What `auth:api` does on top of the token guard once plans are declared: narrows the request's
 * credential to the plan's scopes, counts the request against the plan's limits (per credential,
 * per client, per user, per month: `PlanLimits`) and meters it under `calls` — so an OAuth token, a
 * personal token and an API key of one user share one counter. A credential acting for an
 * organization (`org_id`) counts against the organization's plan instead, under one counter for
 * all its keys and its members' tokens for it (`planHolderOf`). The first-party `app_token`
 * cookie (a transient token) and tokens without a user are left alone.
 */
export class PlanEnforcement {
  readonly #limits = new Map<Plan, PlanLimits>();
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

  /** The `api` guard's step (`OAuthHooks.guardSteps`): the token as the plan lets it act, once counted. */
  readonly step: GuardStep = (c, user, token) => {
    if (token.id === 'transient') return token;
    const organizationId = token.organizationId;
    const standing =
      organizationId === null
        ? this.resolver.cached(Number(user.id))
        : this.resolver.cached(organizationId, ORGANIZATION);
    if (standing !== undefined) return this.#enforce(c, user, this.#binding(user, token, standing));
    const holder = planHolderOf(token, Number(user.id));
    return this.resolver
      .standing(holder.id, holder.type)
      .then((s) => this.#enforce(c, user, this.#binding(user, token, s)));
  };

  /** The credential's binding to this standing, made on its first call under it. */
  #binding(user: User, token: VerifiedToken, standing: PlanStanding): Binding {
    const known = bindings.get(token);
    if (known !== undefined && known.standing === standing && known.userId === user.id) return known;
    const binding: Binding = {
      standing,
      userId: user.id,
      narrowed: withinPlan(token, standing.plan),
      limits: this.#limits.get(standing.plan)?.bind(planHolderOf(token, Number(user.id)).subject, token),
    };
    return bindings.set(token, binding);
  }

  #enforce(c: Context, user: User, binding: Binding): VerifiedToken | Promise<VerifiedToken> {
    const { narrowed, limits } = binding;
    const now = this.#now();
    if (limits === undefined) return this.#count(c, user, narrowed, now);
    const results = limits.consume(now);
    if (results instanceof Promise) return results.then((r) => this.#count(c, user, narrowed, now, r));
    return this.#count(c, user, narrowed, now, results);
  }

  /** The `RateLimit` fields, and the call metered under `calls`. */
  #count(
    c: Context,
    user: User,
    narrowed: VerifiedToken,
    now: number,
    results?: RateLimitResult[],
  ): VerifiedToken | Promise<VerifiedToken> {
    if (results !== undefined) presetRateLimitHeaders(c, results);
    c.set('callCounted', true);
    const counted = this.metering.count(c, 'calls', 1, user.id, now);
    return counted === undefined ? narrowed : counted.then(() => narrowed);
  }
}
