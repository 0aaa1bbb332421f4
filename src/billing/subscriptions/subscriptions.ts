import { randomUUID } from 'node:crypto';
import type { Clock } from '../../core/clock.js';
import type { TollgateConfig } from '../../core/config.js';
import type { EventDispatcher } from '../../core/events.js';
import { ClockKey, ConfigKey, EventsKey } from '../../core/keys.js';
import { isUniqueViolation } from '../../database/errors.js';
import { type BillableModel, type BillableRef, refOf } from '../billable-user.js';
import { BillingLock } from '../billing-lock.js';
import { Customers } from '../customers/customers.js';
import { BillingError, IncompletePayment } from '../errors.js';
import {
  type GatewayPayment,
  type GatewaySubscription,
  type PaymentGateway,
  PaymentGatewayKey,
  type ResumeContext,
} from '../gateway/payment-gateway.js';
import { RequestKeys } from '../request-keys.js';
import { validateTaxPercentage } from '../tax.js';
import { endedStatus } from './provider-status.js';
import { providerTime } from './provider-sync.js';
import { isoOrNull, type SubscriptionRecord, type SubscriptionUpdate } from './record.js';
import * as status from './status.js';
import { Subscription, type SubscriptionOperations } from './subscription.js';
import { announceCancelled } from './subscription-lifecycle.js';
import { ownerOf, SubscriptionRepository } from './subscription-repository.js';

export interface NewSubscriptionOptions {
  name: string;
  plan: string;
  quantity: number;
  trialDays: number | null;
  skipTrial: boolean;
  coupon: string | null;
}

const DAY_MS = 86_400_000;
/**
 * The owner's subscription operations over records (create, swap, quantity, cancel, resume); the
 * `Subscription` handle and the builder are thin faces over these. Status questions go to the
 * status rules, with this service's clock. What the provider reports is applied by
 * `ProviderUpdates`; a hosted Checkout's subscription is stored by `CheckoutAdoptions`.
 */
export class Subscriptions implements SubscriptionOperations {
  static inject = [
    PaymentGatewayKey,
    SubscriptionRepository,
    Customers,
    ClockKey,
    ConfigKey,
    RequestKeys,
    BillingLock,
    EventsKey,
  ] as const;

  constructor(
    private readonly gateway: PaymentGateway,
    private readonly repository: SubscriptionRepository,
    private readonly customers: Customers,
    readonly clock: Clock,
    private readonly config: TollgateConfig,
    private readonly requestKeys: RequestKeys,
    private readonly lock: BillingLock,
    private readonly events?: EventDispatcher,
  ) {}

  private get caps() {
    return this.gateway.capabilities;
  }

  /** The handle for `owner`'s subscription. */
  handle(record: SubscriptionRecord, owner: BillableModel): Subscription {
    return new Subscription(record, {
      owner,
      clock: this.clock,
      columns: this.caps.columns,
      operations: this,
      statusOptions: { keepPastDueSubscribed: this.config.billing.keepPastDueSubscribed },
    });
  }

  async find(owner: BillableModel, name: string): Promise<Subscription | undefined> {
    const record = await this.repository.findByName(refOf(owner), name);
    return record ? this.handle(record, owner) : undefined;
  }

  async all(owner: BillableModel): Promise<Subscription[]> {
    return (await this.repository.forOwner(refOf(owner))).map((record) => this.handle(record, owner));
  }

  /**
   * The builder's `create`: customer first, then the provider subscription, then the local row —
   * under the user's billing lock, once per `details.requestKey` (see `RequestKeys`).
   */
  async create(
    owner: BillableModel,
    options: NewSubscriptionOptions,
    token: string | null,
    details: Record<string, unknown>,
  ): Promise<Subscription> {
    const { requestKey, ...customerDetails } = details;
    this.checkQuantity(options.quantity);
    const taxPercentage = validateTaxPercentage(owner.taxPercentage());
    let pending: GatewayPayment | undefined;
    const sub = await this.requestKeys.once(refOf(owner), requestKey, {
      operation: `subscription.create:${options.name}`,
      params: { options, token, customerDetails },
      run: async (key) => {
        const made = await this.createNow(owner, options, token, customerDetails, taxPercentage, key);
        pending = made.pendingPayment;
        return made.subscription;
      },
      save: (made) => String(made.id),
      load: async (id) => this.handle((await this.repository.find(Number(id)))!, owner),
    });
    // Thrown after the request key stored the subscription: a double submit replays the same
    // `IncompletePayment` (the payment as it is now) instead of making a second subscription.
    if (status.awaitsFirstPayment(sub)) {
      const payment = pending ?? (await this.gateway.latestPayment?.(sub.providerId)) ?? undefined;
      if (payment?.status === 'requires_action') throw new IncompletePayment(payment);
    }
    return sub;
  }

  private async createNow(
    owner: BillableModel,
    options: NewSubscriptionOptions,
    token: string | null,
    details: Record<string, unknown>,
    taxPercentage: number,
    key: string,
  ): Promise<{ subscription: Subscription; pendingPayment?: GatewayPayment }> {
    // One live subscription per (user, name): checked here, enforced by the partial unique index.
    const live = await this.repository.findLive(refOf(owner), options.name);
    if (live && !status.awaitsFirstPayment(live)) throw BillingError.subscriptionExists(options.name);
    // One whose first payment was never authenticated is given up for the new attempt.
    if (live) await this.abandon(live);
    const customerId = await this.customers.createOrUpdate(owner, token, details, key);
    const trialDays =
      options.trialDays ?? this.config.billing.plans.find((p) => p.id === options.plan)?.trialDays;
    const trialEndsAt =
      !options.skipTrial && trialDays ? new Date(this.clock.now().getTime() + trialDays * DAY_MS) : null;
    // Nothing is stored until the provider has accepted the first payment (or the trial), or the
    // payment waits for the customer's 3-D Secure (stored `incomplete`, `IncompletePayment` thrown).
    const remote = await this.gateway.createSubscription({
      customerId,
      plan: options.plan,
      quantity: options.quantity,
      trialEndsAt,
      coupon: options.coupon,
      taxPercentage,
      idempotencyKey: `${key}-subscription`,
      name: options.name,
    });
    const record = await this.repository
      .insert({
        billableType: refOf(owner).type,
        billableId: owner.id,
        name: options.name,
        providerId: remote.id,
        plan: remote.plan,
        quantity: this.caps.supportsQuantities ? remote.quantity : null,
        trialEndsAt: isoOrNull(remote.trialEndsAt ?? trialEndsAt),
        status: remote.status,
        ...providerTime(remote),
      })
      .catch(async (error: unknown) => {
        if (!isUniqueViolation(error)) throw error;
        // Lost a race the lock should have prevented (a lease that expired): leave nothing billing.
        await this.gateway.cancelSubscription(remote.id, { atPeriodEnd: false });
        throw BillingError.subscriptionExists(options.name);
      });
    return { subscription: this.handle(record, owner), pendingPayment: remote.pendingPayment };
  }

  swap(record: SubscriptionRecord, plan: string): Promise<SubscriptionRecord> {
    return this.locked(record, (current) => this.swapNow(current, plan));
  }

  private async swapNow(record: SubscriptionRecord, plan: string): Promise<SubscriptionRecord> {
    const now = this.clock.now();
    if (status.ended(record, now)) throw BillingError.subscriptionCancelled('swap');
    // Cashier's swap also undoes a pending cancellation; a provider may resume by re-creating, so
    // the swap goes on with the id the resume returns (Braintree after a cancel in a trial).
    let providerId = record.providerId;
    const resuming = status.onGracePeriod(record, now);
    if (resuming)
      providerId = (await this.gateway.resumeSubscription(providerId, this.resumeContext(record, now))).id;
    const trialEndsAt = status.onTrial(record, now) ? new Date(record.trialEndsAt!) : null;
    const remote = await this.gateway
      .updateSubscription(providerId, {
        plan,
        quantity: this.caps.supportsQuantities ? (record.quantity ?? 1) : undefined,
        trialEndsAt,
        idempotencyKey: randomUUID(),
      })
      .catch(async (error: unknown) => {
        // A refused swap undoes nothing: the cancellation it lifted is put back at the provider.
        if (resuming && error instanceof BillingError && error.code === 'card_declined')
          await this.recancel(record, providerId);
        throw error;
      });
    const updated = await this.storeAnswer(record.id, remote, {
      providerId: remote.id,
      plan: remote.plan,
      trialEndsAt: isoOrNull(trialEndsAt),
      endsAt: null,
    });
    if (remote.pendingPayment) throw new IncompletePayment(remote.pendingPayment);
    return updated;
  }

  /**
   * Cancels `providerId` at period end again and writes the row as the cancellation had it (on the
   * id a resume that re-created it gave): a webhook handled while the cancellation was lifted may
   * have stored it lifted. The webhook locks the row first, so this write lands after its own.
   */
  private async recancel(record: SubscriptionRecord, providerId: string): Promise<void> {
    const remote = await this.gateway.cancelSubscription(providerId, { atPeriodEnd: true });
    await this.storeAnswer(record.id, remote, { providerId, endsAt: record.endsAt });
  }

  updateQuantity(record: SubscriptionRecord, quantity: number): Promise<SubscriptionRecord> {
    if (!this.caps.supportsQuantities) {
      throw BillingError.unsupportedByEdition('Subscription quantities', this.caps.edition);
    }
    this.checkQuantity(quantity);
    return this.locked(record, (current) => this.updateQuantityNow(current, quantity));
  }

  private async updateQuantityNow(record: SubscriptionRecord, quantity: number): Promise<SubscriptionRecord> {
    if (status.ended(record, this.clock.now()))
      throw BillingError.subscriptionCancelled('change the quantity of');
    const remote = await this.gateway.updateSubscription(record.providerId, {
      quantity,
      idempotencyKey: randomUUID(),
    });
    const updated = await this.storeAnswer(record.id, remote, { quantity: remote.quantity });
    if (remote.pendingPayment) throw new IncompletePayment(remote.pendingPayment);
    return updated;
  }

  /** See `Subscription.updateSeats`: the count is taken under the owner's lock, then set if it changed. */
  updateSeats(
    record: SubscriptionRecord,
    seats: () => Promise<number>,
    addOn?: string,
  ): Promise<SubscriptionRecord> {
    return this.locked(record, async (current) => {
      if (status.ended(current, this.clock.now())) return current;
      const count = await seats();
      this.checkQuantity(count, true);
      if (this.caps.supportsQuantities)
        return current.quantity === count ? current : this.updateQuantityNow(current, count);
      const set = this.gateway.setAddOnQuantity;
      if (!addOn || typeof set !== 'function')
        throw BillingError.unsupportedByEdition('Seats without an add-on', this.caps.edition);
      const remote = await set.call(this.gateway, current.providerId, addOn, count - 1);
      return this.storeAnswer(current.id, remote);
    });
  }

  async cancel(record: SubscriptionRecord): Promise<SubscriptionRecord> {
    return this.cancelled(await this.locked(record, (current) => this.cancelAtPeriodEnd(current)), 'user');
  }

  private async cancelAtPeriodEnd(record: SubscriptionRecord): Promise<SubscriptionRecord> {
    const now = this.clock.now();
    if (status.ended(record, now)) return this.repository.update(record.id, {});
    const remote = await this.gateway.cancelSubscription(record.providerId, { atPeriodEnd: true });
    // In a trial the grace period ends with the trial; otherwise with the paid period.
    const endsAt = status.onTrial(record, now)
      ? record.trialEndsAt
      : isoOrNull(remote.currentPeriodEnd ?? this.clock.now());
    return this.storeAnswer(record.id, remote, { endsAt });
  }

  /**
   * Ends an incomplete subscription for good (a new `create()` replaces it), its pending payment
   * with it (a confirmation page left open must not charge for it) — unless the provider says it
   * was paid meanwhile (the customer confirmed in another tab before the webhook came): then it is
   * the live subscription, stored as such, and the new one is refused.
   */
  private async abandon(record: SubscriptionRecord): Promise<void> {
    const remote =
      record.status === 'incomplete' ? await this.gateway.abandonSubscription(record.providerId) : null;
    if (remote && !status.awaitsFirstPayment(remote) && remote.status !== 'canceled') {
      await this.storeAnswer(record.id, remote, { plan: remote.plan });
      throw BillingError.subscriptionExists(record.name);
    }
    await this.repository.update(record.id, { endsAt: this.clock.now().toISOString(), status: 'canceled' });
  }

  async cancelNow(record: SubscriptionRecord): Promise<SubscriptionRecord> {
    return this.cancelled(await this.locked(record, (current) => this.cancelImmediately(current)), 'user');
  }

  /**
   * Cancels every subscription of the owner (a user's id, or any billable by type and id) that is
   * not over yet, at the provider, now (the account or organization is closing); returns the
   * records it ended. Each runs under the owner's billing lock on the row as saved, so two calls at
   * once cancel each at the provider once: the second finds it ended.
   */
  async cancelAllNow(owner: BillableRef | number): Promise<SubscriptionRecord[]> {
    const ref = typeof owner === 'number' ? { type: 'user', id: owner } : owner;
    const ended: SubscriptionRecord[] = [];
    for (const record of await this.repository.forOwner(ref)) {
      // Read again under the lock: another call may have ended it, or deleted it with its user.
      const result = await this.lock.forOwner(ref, async () => {
        const current = await this.repository.find(record.id);
        return current && !status.ended(current, this.clock.now())
          ? this.cancelImmediately(current)
          : undefined;
      });
      if (result) ended.push(await this.cancelled(result, 'user'));
    }
    return ended;
  }

  /** Raises `SubscriptionCancelled` for a record that now has an end. */
  private async cancelled(record: SubscriptionRecord, by: 'user' | 'provider'): Promise<SubscriptionRecord> {
    await announceCancelled(this.events, record, by);
    return record;
  }

  private async cancelImmediately(record: SubscriptionRecord): Promise<SubscriptionRecord> {
    // Already over (the provider ended it, or the grace period ran out): nothing left to cancel there.
    if (status.ended(record, this.clock.now())) return this.repository.update(record.id, {});
    const remote = await this.gateway.cancelSubscription(record.providerId, { atPeriodEnd: false });
    return this.storeAnswer(record.id, remote, { endsAt: this.clock.now().toISOString() });
  }

  resume(record: SubscriptionRecord): Promise<SubscriptionRecord> {
    return this.locked(record, (current) => this.resumeNow(current));
  }

  private async resumeNow(record: SubscriptionRecord): Promise<SubscriptionRecord> {
    const now = this.clock.now();
    // The spec leaves resume outside the grace period unspecified; Cashier throws, so do we.
    if (!status.onGracePeriod(record, now)) throw BillingError.notOnGracePeriod();
    const remote = await this.gateway.resumeSubscription(record.providerId, this.resumeContext(record, now));
    return this.storeAnswer(record.id, remote, { providerId: remote.id, endsAt: null });
  }

  syncTaxPercentage(record: SubscriptionRecord, owner: BillableModel): Promise<SubscriptionRecord> {
    const taxPercentage = validateTaxPercentage(owner.taxPercentage());
    return this.locked(record, async (current) => {
      await this.gateway.updateSubscription(current.providerId, {
        taxPercentage,
        idempotencyKey: randomUUID(),
      });
      return this.repository.update(current.id, {});
    });
  }

  /**
   * Runs a change under the owner's billing lock (the one `create()` takes), on the row as saved
   * now: a handle held across another change may name a provider subscription that a swap has
   * since replaced, or a state that is no longer true, and each change is priced from that state.
   * The handle's unsaved `skipTrial()` still applies (an explicit skip wins over the saved trial).
   */
  private locked(
    record: SubscriptionRecord,
    change: (current: SubscriptionRecord) => Promise<SubscriptionRecord>,
  ): Promise<SubscriptionRecord> {
    return this.lock.forOwner(ownerOf(record), async () => {
      const saved = await this.repository.find(record.id);
      if (!saved) return change(record);
      return change(record.trialEndsAt === null ? { ...saved, trialEndsAt: null } : saved);
    });
  }

  async asProviderSubscription(record: SubscriptionRecord): Promise<GatewaySubscription> {
    const remote = await this.gateway.findSubscription(record.providerId);
    if (!remote) throw BillingError.subscriptionNotFound(record.name);
    return remote;
  }

  /**
   * Stores a change's own fields with the provider's answer to it: its status, stamped with the
   * provider's time of it (when known). An answer that has the subscription live is not stored
   * over a row a webhook has since ended it on: the change held the owner's lock, not the row's,
   * while it waited for the answer (see `SubscriptionRepository.update`).
   */
  private storeAnswer(
    id: number,
    remote: GatewaySubscription,
    own: SubscriptionUpdate = {},
  ): Promise<SubscriptionRecord> {
    const answer = { ...own, status: remote.status, ...providerTime(remote) };
    return this.repository.update(id, answer, endedStatus(remote.status) ? {} : { unlessEnded: remote.id });
  }

  private resumeContext(record: SubscriptionRecord, now: Date): ResumeContext {
    return {
      plan: record.plan,
      quantity: record.quantity ?? 1,
      trialEndsAt: status.onTrial(record, now) ? new Date(record.trialEndsAt!) : null,
      idempotencyKey: randomUUID(),
    };
  }

  private checkQuantity(quantity: number, seats = false): void {
    if (!Number.isInteger(quantity) || quantity < 1) throw BillingError.invalidQuantity(quantity);
    if (quantity !== 1 && !this.caps.supportsQuantities && !seats) {
      throw BillingError.unsupportedByEdition('Subscription quantities', this.caps.edition);
    }
  }
}
