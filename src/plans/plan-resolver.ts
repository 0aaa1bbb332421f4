import type { SubscriptionRecord } from '../billing/subscriptions/record.js';
import { valid } from '../billing/subscriptions/status.js';
import type { Clock } from '../core/clock.js';
import { LruCache } from '../core/lru.js';
import type { PlansConfig } from './config.js';
import type { Plan, PlanCatalog } from './plan.js';

const DAY_MS = 86_400_000;

/** A user's plan, and how they hold it. */
export interface PlanStanding {
  readonly plan: Plan;
  /** `subscribed`; `past_due` within the grace; `lapsed`: past due beyond it (on the free plan now); `free`. */
  readonly state: 'subscribed' | 'past_due' | 'lapsed' | 'free';
  /** When `lapsed`: the plan the past-due subscription is for. */
  readonly lapsedFrom?: Plan;
}

export interface PlanResolverDeps {
  catalog: PlanCatalog;
  config: Pick<PlansConfig, 'subscription' | 'pastDueGraceDays' | 'cacheMs'>;
  clock: Clock;
  /** The user's newest subscription of that name (the billing repository), if any. */
  subscription(userId: number, name: string): Promise<SubscriptionRecord | undefined>;
}

interface Cached {
  standing: PlanStanding;
  until: number;
}

/**
 * User → plan: their valid subscription's plan, else the free plan. Remembered for `cacheMs` per
 * user and forgotten when a subscription changes (`forget`), so an upgrade counts at once. One
 * user's concurrent lookups share one read, and a lookup that finds what was remembered answers
 * with the same standing object, so what is bound to it (`PlanEnforcement`) is kept.
 */
export class PlanResolver {
  readonly #cache = new LruCache<number, Cached>(50_000);
  readonly #lookups = new Map<number, Promise<PlanStanding>>();
  /** Bumped by every `forget`: a lookup that started before one is not cached. */
  #epoch = 0;

  constructor(private readonly deps: PlanResolverDeps) {}

  /** The cached standing, or undefined (then `standing` reads it). Synchronous on purpose. */
  cached(userId: number): PlanStanding | undefined {
    const hit = this.#cache.get(userId);
    return hit !== undefined && hit.until > performance.now() ? hit.standing : undefined;
  }

  standing(userId: number): Promise<PlanStanding> {
    const hit = this.cached(userId);
    if (hit !== undefined) return Promise.resolve(hit);
    const pending = this.#lookups.get(userId);
    if (pending !== undefined) return pending;
    const lookup = this.#lookup(userId).finally(() => {
      if (this.#lookups.get(userId) === lookup) this.#lookups.delete(userId);
    });
    this.#lookups.set(userId, lookup);
    return lookup;
  }

  forget(userId: number): void {
    this.#epoch++;
    this.#cache.delete(userId);
    this.#lookups.delete(userId);
  }

  clear(): void {
    this.#epoch++;
    this.#cache.clear();
    this.#lookups.clear();
  }

  async #lookup(userId: number): Promise<PlanStanding> {
    const epoch = this.#epoch;
    const record = await this.deps.subscription(userId, this.deps.config.subscription);
    const found = this.#standingOf(record);
    const known = this.#cache.get(userId)?.standing;
    const standing = known !== undefined && sameStanding(known, found) ? known : found;
    if (epoch === this.#epoch)
      this.#cache.set(userId, { standing, until: performance.now() + this.deps.config.cacheMs });
    return standing;
  }

  #standingOf(record: SubscriptionRecord | undefined): PlanStanding {
    const { catalog, clock, config } = this.deps;
    const free: PlanStanding = { plan: catalog.free!, state: 'free' };
    if (!record) return free;
    const now = clock.now();
    const plan = catalog.byBillingPlan.get(record.plan);
    if (!plan || !valid(record, now, { keepPastDueSubscribed: true })) return free;
    if (record.status !== 'past_due') return { plan, state: 'subscribed' };
    const since = Date.parse(record.pastDueSince ?? record.updatedAt);
    const lapsed = now.getTime() - since > config.pastDueGraceDays * DAY_MS;
    return lapsed ? { plan: catalog.free!, state: 'lapsed', lapsedFrom: plan } : { plan, state: 'past_due' };
  }
}

function sameStanding(a: PlanStanding, b: PlanStanding): boolean {
  return a.plan === b.plan && a.state === b.state && a.lapsedFrom === b.lapsedFrom;
}
