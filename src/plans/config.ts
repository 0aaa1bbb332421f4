import type { ConfigSlice } from '../core/config.js';

/** A rate limit in a plan's words: `{ requests: 60, per: 'minute' }`. */
export interface PlanRateLimit {
  requests: number;
  per: 'second' | 'minute' | 'hour' | 'day';
  /** A tighter limit per OAuth client of the user (each app acting for them); none by default. */
  perClient?: PlanWindow;
  /** A tighter limit per credential (each token, each API key); none by default. */
  perCredential?: PlanWindow;
}

/** Requests per window, the shape of `perClient` and `perCredential`. */
export interface PlanWindow {
  requests: number;
  per: PlanRateLimit['per'];
}

/**
 * A metered price on a plan: the units of one meter, billed per unit by the provider at each
 * renewal, reported by `tollgate usage:report` (or `UsageReporter`) from the usage aggregates.
 * @example { meter: 'calls', price: 'price_api_calls' }      // Stripe: a metered price with a Billing Meter
 * @example { meter: 'emails', price: 'emails', unitAmount: 1 } // Braintree: an add-on, 1¢ per email
 */
export interface PlanMeteredPrice {
  /** `'calls'` (the API calls the guard counts) or a unit the application reports (`meter(c, 'emails', 3)`). */
  meter: string;
  /** Stripe: the metered price's id (`recurring.usage_type=metered`, with a Billing Meter). Braintree: the add-on's id. */
  price: string;
  /**
   * Per unit, in minor units (cents). Braintree: overrides the add-on's amount; Stripe: the price
   * has its own, so this only seeds the embedded sandbox's price. Default: the provider's amount.
   */
  unitAmount?: number;
}

/** What a plan entitles its subscribers to. Every field is optional: absent means unlimited. */
export interface PlanEntitlements {
  /**
   * The billing plans (`billing.plans[].id`, the provider's plan ids) that put a user on this
   * plan; default: the plan's own name, so `pro-monthly` entitles to the plan `pro-monthly`.
   */
  billingPlans?: string[];
  /** The scopes a credential of its subscribers may use; `['*']` (the default): every scope. */
  scopes?: string[];
  /** Requests per window, per user, shared by every credential of the user. */
  rateLimit?: PlanRateLimit;
  /** Calls per calendar month (UTC), per user, shared by every credential of the user. */
  monthlyQuota?: number;
  /** Feature names that `entitled:feature` checks. */
  features?: string[];
  /** Usage billed per unit by the provider, on top of the plan's price. */
  metered?: PlanMeteredPrice;
}

export interface PlansConfig {
  /**
   * The plans by name. Empty (the default): plans are off, nothing is limited or narrowed.
   * @example { free: { scopes: ['read'], rateLimit: { requests: 60, per: 'minute' } },
   *            pro: { billingPlans: ['pro-monthly', 'pro-yearly'], scopes: ['*'] } }
   */
  definitions: Record<string, PlanEntitlements>;
  /** The plan of a user without a valid subscription (must be one of `definitions`). */
  free: string;
  /** The subscription (by name, Cashier's `newSubscription(name, …)`) that decides the plan. */
  subscription: string;
  /**
   * Days a `past_due` subscription keeps its plan; after them `plan:` answers 402 and the user
   * falls to the free plan. Counted from when the subscription became past due.
   */
  pastDueGraceDays: number;
  /** How long a user's plan is remembered in process (ms); subscription changes forget it at once. */
  cacheMs: number;
  /** Usage metering (`metered`, `meter()`, the `calls` of every API call once plans are declared). */
  metering: MeteringConfig;
}

export interface MeteringConfig {
  /** How long counts gather in memory before one upsert writes them to `api_usage_daily` (ms). */
  flushMs: number;
}

declare module '../core/config.js' {
  interface TollgateConfig {
    plans: PlansConfig;
  }
}

export const plansConfig: ConfigSlice<'plans'> = {
  defaults: {
    plans: {
      definitions: {},
      free: 'free',
      subscription: 'default',
      pastDueGraceDays: 7,
      cacheMs: 10_000,
      metering: { flushMs: 5_000 },
    },
  },
  fromEnv: (env) => ({
    plans: {
      free: env.PLANS_FREE || undefined,
      pastDueGraceDays: env.PLANS_PAST_DUE_GRACE_DAYS ? Number(env.PLANS_PAST_DUE_GRACE_DAYS) : undefined,
      metering: { flushMs: env.METERING_FLUSH_MS ? Number(env.METERING_FLUSH_MS) : undefined },
    },
  }),
};
