import type { BillableRef } from '../billing/billable-user.js';
import type { SubscriptionRecord } from '../billing/subscriptions/record.js';
import { valid } from '../billing/subscriptions/status.js';
import type { Clock } from '../core/clock.js';
import { LruCache } from '../core/lru.js';
import type { PlansConfig } from './config.js';
import type { Plan, PlanCatalog } from './plan.js';

const DAY_MS = 86_400_000;

/**
 * Who holds a plan: a user (`'user'`, the default) or another billable model — an organization,
 * whose plan the calls of its credentials and of its members' tokens for it count against.
 */
export type PlanHolderType = BillableRef['type'];

/** A user's (or an organization's) plan, and how they hold it. */
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
  /** The holder's newest subscription of that name (the billing repository), if any. */
  subscription(holder: BillableRef, name: string): Promise<SubscriptionRecord | undefined>;
}

interface Cached {
  standing: PlanStanding;
  until: number;
}

/** One holder type's remembered standings and the lookups under way. */
class Holders {
  readonly cache = new LruCache<number, Cached>(50_000);
  readonly lookups = new Map<number, Promise<PlanStanding>>();
}

/**
 * Holder → plan: the valid subscription's plan, else the free plan; a holder is a user, or
 * (`type`) another billable model such as an organization. Remembered for `cacheMs` per holder and
 * forgotten when a subscription changes (`forget`), so an upgrade counts at once. One holder's
 * concurrent lookups share one read, and a lookup that finds what was remembered answers with the
 * same standing object, so what is bound to it (`PlanEnforcement`) is kept.
 */
export class PlanResolver {
  readonly #users = new Holders();
  readonly #others = new Map<PlanHolderType, Holders>();
  /** Bumped by every `forget`: a lookup that started before one is not cached. */
  #epoch = 0;

  constructor(private readonly deps: PlanResolverDeps) {}

  #holders(type: PlanHolderType): Holders {
    if (type === 'user') return this.#users;
    const known = this.#others.get(type);
    if (known !== undefined) return known;
    const holders = new Holders();
    this.#others.set(type, holders);
    return holders;
  }

  /** The cached standing, or undefined (then `standing` reads it). Synchronous on purpose. */
  cached(id: number, type: PlanHolderType = 'user'): PlanStanding | undefined {
    const hit = this.#holders(type).cache.get(id);
    return hit !== undefined && hit.until > performance.now() ? hit.standing : undefined;
  }

  standing(id: number, type: PlanHolderType = 'user'): Promise<PlanStanding> {
    const hit = this.cached(id, type);
    if (hit !== undefined) return Promise.resolve(hit);
    const { lookups } = this.#holders(type);
    const pending = lookups.get(id);
    if (pending !== undefined) return pending;
    const lookup = this.#lookup(id, type).finally(() => {
      if (lookups.get(id) === lookup) lookups.delete(id);
    });
    lookups.set(id, lookup);
    return lookup;
  }

  forget(id: number, type: PlanHolderType = 'user'): void {
    this.#epoch++;
    const holders = this.#holders(type);
    holders.cache.delete(id);
    holders.lookups.delete(id);
  }

  clear(): void {
    this.#epoch++;
    for (const holders of [this.#users, ...this.#others.values()]) {
      holders.cache.clear();
      holders.lookups.clear();
    }
  }

  async #lookup(id: number, type: PlanHolderType): Promise<PlanStanding> {
    const epoch = this.#epoch;
    const record = await this.deps.subscription({ type, id }, this.deps.config.subscription);
    const found = this.#standingOf(record);
    const { cache } = this.#holders(type);
    const known = cache.get(id)?.standing;
    const standing = known !== undefined && sameStanding(known, found) ? known : found;
    if (epoch === this.#epoch)
      cache.set(id, { standing, until: performance.now() + this.deps.config.cacheMs });
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
