import type { Kysely } from 'kysely';
import type { Clock } from '../../core/clock.js';
import { ClockKey } from '../../core/keys.js';
import { isUniqueViolation } from '../../database/errors.js';
import { DbKey } from '../../database/keys.js';
import type { Database } from '../../database/types.js';
import { BillableStores } from '../billable-stores.js';
import type { BillableRef } from '../billable-user.js';
import { BillingLock } from '../billing-lock.js';
import {
  type GatewaySubscription,
  type PaymentGateway,
  PaymentGatewayKey,
} from '../gateway/payment-gateway.js';
import { providerTime } from '../subscriptions/provider-sync.js';
import type { SubscriptionRecord } from '../subscriptions/record.js';
import * as status from '../subscriptions/status.js';
import { ownerOf, SubscriptionRepository } from '../subscriptions/subscription-repository.js';
import { changesFrom, type Drift, differences, isLiveAtProvider, type ReconcileReport } from './drift.js';

export interface ReconcileOptions {
  /** Only this owner (a user, an organization). */
  owner?: BillableRef;
  /** Repair what is found (the provider is the source of truth). */
  fix: boolean;
  /** The name an adopted subscription gets when the provider does not keep one (Braintree). */
  adoptAs: string;
}

interface Owner {
  ref: BillableRef;
  email: string;
  customerId: string | null;
}

/**
 * `tollgate billing:reconcile`: every billable owner's subscriptions and customer (users,
 * organizations: every type registered in `BillableStores`) against the provider, through the
 * `PaymentGateway` port. Repairs run under the owner's billing lock and re-check what they repair,
 * so two runs at once (or a run beside a webhook) adopt a subscription once.
 */
export class Reconciler {
  static inject = [
    DbKey,
    PaymentGatewayKey,
    SubscriptionRepository,
    BillingLock,
    ClockKey,
    BillableStores,
  ] as const;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly gateway: PaymentGateway,
    private readonly repository: SubscriptionRepository,
    private readonly lock: BillingLock,
    private readonly clock: Clock,
    private readonly stores: BillableStores,
  ) {}

  async run(options: ReconcileOptions): Promise<ReconcileReport> {
    const owners: Owner[] = [];
    for (const ref of options.owner ? [options.owner] : await this.owners())
      owners.push(await this.load(ref));
    const report: ReconcileReport = { owners: owners.length, subscriptions: 0, drift: [] };
    for (const owner of owners) {
      const { drift, subscriptions } = await this.owner(owner, options);
      report.subscriptions += subscriptions;
      report.drift.push(...drift);
    }
    return report;
  }

  /** Every owner with a customer id or a subscription row: users first, then by type and id. */
  private async owners(): Promise<BillableRef[]> {
    const column = this.gateway.capabilities.columns.customerId;
    const rows = await this.db
      .selectFrom('subscriptions')
      .select(['billable_type', 'billable_id'])
      .distinct()
      .execute();
    const refs = new Map<string, BillableRef>();
    for (const ref of [
      ...(await this.stores.withCustomer(column)),
      ...rows.map((row) => ({ type: row.billable_type, id: Number(row.billable_id) })),
    ])
      refs.set(`${ref.type}:${ref.id}`, ref);
    const typeOrder = (type: string) => (type === 'user' ? '' : type);
    return [...refs.values()].sort(
      (a, b) => typeOrder(a.type).localeCompare(typeOrder(b.type)) || a.id - b.id,
    );
  }

  private async load(ref: BillableRef): Promise<Owner> {
    const model = await this.stores.find(ref);
    const customerId = model?.[this.gateway.capabilities.columns.customerId] ?? null;
    return { ref, email: model?.email ?? '', customerId };
  }

  private async owner(owner: Owner, options: ReconcileOptions) {
    const drift: Drift[] = [];
    const base = { owner: owner.ref, email: owner.email, fixed: false };
    let remote: GatewaySubscription[] = [];
    if (owner.customerId) {
      if (await this.gateway.findCustomer(owner.customerId)) {
        remote = await this.gateway.listSubscriptions(owner.customerId);
      } else {
        const found: Drift = {
          ...base,
          kind: 'missing_customer',
          subscriptionId: null,
          name: null,
          providerId: owner.customerId,
        };
        if (options.fix) found.fixed = await this.forgetCustomer(owner);
        drift.push(found);
      }
    }
    const locals = (await this.repository.forOwner(owner.ref)).filter((r) => r.providerId !== '');
    const taken = new Set(locals.map((r) => r.providerId));
    for (const record of locals) {
      const found = await this.compare(record, remote, taken, options.fix);
      if (found) drift.push({ ...base, ...found });
    }
    for (const sub of remote) {
      if (!isLiveAtProvider(sub) || taken.has(sub.id)) continue;
      if ((await this.repository.findByProviderId(sub.id)).length > 0) continue; // another owner's row
      const found: Drift = {
        ...base,
        kind: 'orphaned',
        subscriptionId: null,
        name: sub.name ?? options.adoptAs,
        providerId: sub.id,
      };
      if (options.fix) Object.assign(found, await this.adopt(owner.ref, sub, found.name!));
      drift.push(found);
    }
    return { drift, subscriptions: locals.length };
  }

  /** One row against its provider object; `taken` collects provider ids that have a row. */
  private async compare(
    record: SubscriptionRecord,
    remote: GatewaySubscription[],
    taken: Set<string>,
    fix: boolean,
  ): Promise<Omit<Drift, 'owner' | 'email'> | null> {
    const now = this.clock.now();
    const row = { subscriptionId: record.id, name: record.name, fixed: false };
    const sub =
      remote.find((s) => s.id === record.providerId) ??
      (await this.gateway.findSubscription(record.providerId));
    if (!sub) {
      // A first payment waiting for 3-D Secure on Braintree: the subscription is made once it is paid.
      if (status.ended(record, now) || status.awaitsFirstPayment(record)) return null;
      const found = { ...row, kind: 'missing_at_provider' as const, providerId: record.providerId };
      if (fix) found.fixed = await this.endRow(record);
      return found;
    }
    if (status.ended(record, now) && isLiveAtProvider(sub) && (await this.otherLive(record))) {
      const found = { ...row, kind: 'duplicate' as const, providerId: sub.id };
      if (fix) found.fixed = await this.cancelDuplicate(record, sub.id);
      return found;
    }
    // Replaced by a swap that re-creates (Braintree): the row's subscription was cancelled and the
    // write failed, or the cancel itself failed and both bill (a half-done swap, finished here).
    const successor =
      this.gateway.successorOf && !status.ended(record, now) ? await this.gateway.successorOf(sub.id) : null;
    if (successor && !taken.has(successor.id)) {
      taken.add(successor.id);
      const found = { ...row, kind: 'replaced' as const, providerId: successor.id };
      if (fix) found.fixed = await this.sync(record, successor, sub.id);
      return found;
    }
    const fields = differences(
      record,
      changesFrom(record, sub, now, this.gateway.capabilities.supportsQuantities),
    );
    if (!fields) return null;
    const found = { ...row, kind: 'mismatch' as const, providerId: sub.id, fields };
    if (fix) found.fixed = await this.sync(record, sub);
    return found;
  }

  /**
   * Applies the provider's state to the row, under the lock. `replacing`: the row moves onto `sub`,
   * which replaced that subscription; one still live there (its cancel failed) is cancelled now.
   * The state is fetched with the row locked, in one transaction with its write, as the webhook
   * receiver does: a webhook applying a newer state (the provider ended it meanwhile) waits for
   * this write and lands after it, instead of being overwritten by the older state fetched.
   */
  private sync(record: SubscriptionRecord, sub: GatewaySubscription, replacing?: string): Promise<boolean> {
    return this.lock.forOwner(ownerOf(record), async () => {
      const before = await this.repository.find(record.id);
      if (!before) return false;
      if (replacing && before.providerId === replacing) {
        const old = await this.gateway.findSubscription(replacing);
        if (old && isLiveAtProvider(old))
          await this.gateway.cancelSubscription(replacing, { atPeriodEnd: false });
      }
      return this.db.transaction().execute(async (trx) => {
        const rows = this.repository.using(trx);
        await rows.lockByProviderId(before.providerId);
        const current = await rows.find(record.id);
        if (!current) return false;
        // Fetched again: the state as of now, with the provider's time of it (a list has none).
        const fresh = (await this.gateway.findSubscription(sub.id)) ?? sub;
        const changes = changesFrom(
          current,
          fresh,
          this.clock.now(),
          this.gateway.capabilities.supportsQuantities,
        );
        const { providerUpdatedAt: _appTime, ...state } = changes;
        await rows.update(record.id, {
          ...state,
          ...(replacing ? { providerId: sub.id } : {}),
          ...providerTime(fresh),
        });
        return true;
      });
    });
  }

  /** Another live row of the same user and name (the one the customer chose last). */
  private async otherLive(record: SubscriptionRecord): Promise<boolean> {
    const live = await this.repository.findLive(ownerOf(record), record.name);
    return live !== undefined && live.id !== record.id;
  }

  /**
   * A provider subscription still billing for a row that ended here, beside the live row of that
   * name: cancelled now at the provider (what the customer paid on it is left to a refund).
   */
  private cancelDuplicate(record: SubscriptionRecord, providerId: string): Promise<boolean> {
    return this.lock.forOwner(ownerOf(record), async () => {
      const current = await this.repository.find(record.id);
      if (!current || !status.ended(current, this.clock.now()) || !(await this.otherLive(current)))
        return false;
      const remote = await this.gateway.cancelSubscription(providerId, { atPeriodEnd: false });
      await this.repository.update(record.id, { status: remote.status, ...providerTime(remote) });
      return true;
    });
  }

  private endRow(record: SubscriptionRecord): Promise<boolean> {
    return this.lock.forOwner(ownerOf(record), async () => {
      await this.repository.update(record.id, {
        endsAt: record.endsAt ?? this.clock.now().toISOString(),
        status: 'canceled',
      });
      return true;
    });
  }

  /** A live provider subscription without a row becomes one, once, by its provider id. */
  private adopt(
    owner: BillableRef,
    sub: GatewaySubscription,
    name: string,
  ): Promise<Pick<Drift, 'fixed' | 'unfixed'>> {
    return this.lock.forOwner(owner, async () => {
      if ((await this.repository.findByProviderId(sub.id)).length > 0) return { fixed: true };
      if (await this.repository.findLive(owner, name))
        return { fixed: false, unfixed: `a live subscription "${name}" already exists; cancel one of them` };
      try {
        const record = await this.repository.insert({
          billableType: owner.type,
          billableId: owner.id,
          name,
          providerId: sub.id,
          plan: sub.plan,
          quantity: this.gateway.capabilities.supportsQuantities ? sub.quantity : null,
          trialEndsAt: sub.trialEndsAt?.toISOString() ?? null,
          status: sub.status,
          ...providerTime(sub),
        });
        if (sub.cancelAtPeriodEnd)
          await this.repository.update(record.id, {
            endsAt: (sub.currentPeriodEnd ?? this.clock.now()).toISOString(),
          });
        return { fixed: true };
      } catch (err) {
        // Another run (outside this lock's lease) adopted it, or made a live row of that name.
        if (!isUniqueViolation(err)) throw err;
        const adopted = (await this.repository.findByProviderId(sub.id)).length > 0;
        return adopted
          ? { fixed: true }
          : { fixed: false, unfixed: `a live subscription "${name}" already exists` };
      }
    });
  }

  /** The customer is gone at the provider: the owner is no customer (the next payment makes one). */
  private forgetCustomer(owner: Owner): Promise<boolean> {
    const column = this.gateway.capabilities.columns.customerId;
    return this.lock.forOwner(owner.ref, async () => {
      const model = await this.stores.find(owner.ref);
      if (!model || model[column] !== owner.customerId) return false;
      await this.stores
        .of(owner.ref.type)
        .update(model, { [column]: null, card_brand: null, card_last_four: null, paypal_email: null });
      return true;
    });
  }
}
