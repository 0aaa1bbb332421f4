import { ConfigurationError } from '../core/errors.js';
import { OPENID_SCOPES } from '../oauth/index.js';
import type { RateLimitPolicy } from '../rate-limits/policy.js';
import type { PlanEntitlements, PlanMeteredPrice, PlansConfig, PlanWindow } from './config.js';

const SECONDS = { second: 1, minute: 60, hour: 3_600, day: 86_400 } as const;

/** A plan as the middleware reads it: parsed once from `config.plans`, frozen. */
export interface Plan {
  readonly name: string;
  /**
   * The allowed scopes, with the OpenID Connect ones (`openid`, `profile`, `email`: signing in is
   * not an entitlement); null: every scope (`*`), the token's own scopes count unchanged.
   */
  readonly scopes: ReadonlySet<string> | null;
  /** The per-user limit, as a rate-limit policy; null: unlimited. */
  readonly rateLimit: RateLimitPolicy | null;
  /** Per OAuth client of a user (`rateLimit.perClient`); null: none. */
  readonly clientLimit: RateLimitPolicy | null;
  /** Per token or API key (`rateLimit.perCredential`); null: none. */
  readonly credentialLimit: RateLimitPolicy | null;
  readonly monthlyQuota: number | null;
  readonly features: ReadonlySet<string>;
  /** The metered price usage is reported for; null: the plan bills no usage. */
  readonly metered: Readonly<PlanMeteredPrice> | null;
}

/** Every declared plan, and which plan each billing plan id puts a user on. */
export interface PlanCatalog {
  readonly plans: ReadonlyMap<string, Plan>;
  readonly byBillingPlan: ReadonlyMap<string, Plan>;
  /** The plan of users without a valid subscription; undefined when plans are off. */
  readonly free: Plan | undefined;
}

function toPolicy(window: PlanWindow | undefined, path: string): RateLimitPolicy | null {
  if (window === undefined) return null;
  if (!(window.requests >= 0) || !(window.per in SECONDS))
    throw new ConfigurationError(`${path} needs requests ≥ 0 and a known "per".`);
  return { points: window.requests, durationSeconds: SECONDS[window.per] };
}

function toPlan(name: string, e: PlanEntitlements): Plan {
  const scopes = e.scopes ?? ['*'];
  const limit = e.rateLimit;
  return Object.freeze({
    name,
    scopes: scopes.includes('*') ? null : new Set([...scopes, ...Object.keys(OPENID_SCOPES)]),
    rateLimit: toPolicy(limit, `plans.definitions.${name}.rateLimit`),
    clientLimit: toPolicy(limit?.perClient, `plans.definitions.${name}.rateLimit.perClient`),
    credentialLimit: toPolicy(limit?.perCredential, `plans.definitions.${name}.rateLimit.perCredential`),
    monthlyQuota: e.monthlyQuota ?? null,
    features: new Set(e.features ?? []),
    metered: meteredOf(name, e.metered),
  });
}

function meteredOf(name: string, metered: PlanMeteredPrice | undefined): Readonly<PlanMeteredPrice> | null {
  if (!metered) return null;
  const { meter, price, unitAmount } = metered;
  if (!meter || !price || (unitAmount !== undefined && !(Number.isInteger(unitAmount) && unitAmount >= 0)))
    throw new ConfigurationError(
      `plans.definitions.${name}.metered needs a meter, a price, and a unitAmount (if any) in whole minor units ≥ 0.`,
    );
  return Object.freeze({ ...metered });
}

/** Parses `config.plans`; a free plan that is not declared is a configuration error. */
export function planCatalog(config: Pick<PlansConfig, 'definitions' | 'free'>): PlanCatalog {
  const plans = new Map<string, Plan>();
  const byBillingPlan = new Map<string, Plan>();
  for (const [name, entitlements] of Object.entries(config.definitions)) {
    const plan = toPlan(name, entitlements);
    plans.set(name, plan);
    for (const id of entitlements.billingPlans ?? [name]) byBillingPlan.set(id, plan);
  }
  const free = plans.get(config.free);
  if (plans.size > 0 && !free)
    throw new ConfigurationError(
      `plans.free names "${config.free}", which plans.definitions does not declare.`,
    );
  return { plans, byBillingPlan, free };
}
