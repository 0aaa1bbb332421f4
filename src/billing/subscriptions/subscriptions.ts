import { randomUUID } from 'node:crypto';
import type { Clock } from '../../core/clock.js';
import type { TollgateConfig } from '../../core/config.js';
import { ClockKey, ConfigKey } from '../../core/keys.js';
import { isUniqueViolation } from '../../database/errors.js';
import type { BillableUser } from '../billable-user.js';
import { Customers } from '../customers/customers.js';
import { BillingError } from '../errors.js';
import {
  type GatewaySubscription,
  type PaymentGateway,
  PaymentGatewayKey,
} from '../gateway/payment-gateway.js';
import { RequestKeys } from '../request-keys.js';
import type { SubscriptionRow } from '../tables.js';
import { validateTaxPercentage } from '../tax.js';
import { Subscription, type SubscriptionActions } from './subscription.js';
import { SubscriptionRepository } from './subscription-repository.js';

export interface NewSubscriptionOptions {
  name: string;
  plan: string;
  quantity: number;
  trialDays: number | null;
  skipTrial: boolean;
  coupon: string | null;
}

const DAY_MS = 86_400_000;

/** Subscription operations; the `Subscription` model and the builder are thin faces over these. */
export class Subscriptions implements SubscriptionActions {
  static inject = [
    PaymentGatewayKey,
    SubscriptionRepository,
    Customers,
    ClockKey,
    ConfigKey,
    RequestKeys,
  ] as const;

  constructor(
    private readonly gateway: PaymentGateway,
    private readonly repository: SubscriptionRepository,
    private readonly customers: Customers,
    readonly clock: Clock,
    private readonly config: TollgateConfig,
    private readonly requestKeys: RequestKeys,
  ) {}

  private get caps() {
    return this.gateway.capabilities;
  }

  model(row: SubscriptionRow, owner: BillableUser): Subscription {
    const sub = new Subscription(row, this);
    owners.set(sub, owner);
    return sub;
  }

  providerId(row: SubscriptionRow): string {
    return row[this.caps.columns.subscriptionId] ?? '';
  }

  plan(row: SubscriptionRow): string {
    return row[this.caps.columns.subscriptionPlan] ?? '';
  }

  async find(owner: BillableUser, name: string): Promise<Subscription | undefined> {
    const row = await this.repository.findByName(owner.id, name);
    return row ? this.model(row, owner) : undefined;
  }

  async all(owner: BillableUser): Promise<Subscription[]> {
    return (await this.repository.forUser(owner.id)).map((row) => this.model(row, owner));
  }

  /**
   * The builder's `create`: customer first, then the provider subscription, then the local row —
   * under the user's billing lock, once per `details.requestKey` (see `RequestKeys`).
   */
  async create(
    owner: BillableUser,
    options: NewSubscriptionOptions,
    token: string | null,
    details: Record<string, unknown>,
  ): Promise<Subscription> {
    const { requestKey, ...customerDetails } = details;
    this.checkQuantity(options.quantity);
    const taxPercentage = validateTaxPercentage(owner.taxPercentage());
    return this.requestKeys.once(owner.id, requestKey, {
      operation: `subscription.create:${options.name}`,
      params: { options, token, customerDetails },
      run: (key) => this.createNow(owner, options, token, customerDetails, taxPercentage, key),
      save: (sub) => String(sub.id),
      load: async (id) => this.model((await this.repository.find(Number(id)))!, owner),
    });
  }

  private async createNow(
    owner: BillableUser,
    options: NewSubscriptionOptions,
    token: string | null,
    details: Record<string, unknown>,
    taxPercentage: number,
    key: string,
  ): Promise<Subscription> {
    // One live subscription per (user, name): checked here, enforced by the partial unique index.
    if (await this.repository.findLive(owner.id, options.name))
      throw BillingError.subscriptionExists(options.name);
    const customerId = await this.customers.createOrUpdate(owner, token, details, key);
    const trialDays =
      options.trialDays ?? this.config.billing.plans.find((p) => p.id === options.plan)?.trialDays;
    const trialEndsAt =
      !options.skipTrial && trialDays ? new Date(this.clock.now().getTime() + trialDays * DAY_MS) : null;
    // Nothing is stored until the provider has accepted the first payment (or the trial).
    const remote = await this.gateway.createSubscription({
      customerId,
      plan: options.plan,
      quantity: options.quantity,
      trialEndsAt,
      coupon: options.coupon,
      taxPercentage,
      idempotencyKey: `${key}-subscription`,
    });
    const row = await this.repository
      .insert(this.caps.columns, {
        userId: owner.id,
        name: options.name,
        providerId: remote.id,
        plan: remote.plan,
        quantity: this.caps.supportsQuantities ? remote.quantity : null,
        trialEndsAt: iso(remote.trialEndsAt ?? trialEndsAt),
      })
      .catch(async (error: unknown) => {
        if (!isUniqueViolation(error)) throw error;
        // Lost a race the lock should have prevented (a lease that expired): leave nothing billing.
        await this.gateway.cancelSubscription(remote.id, { atPeriodEnd: false });
        throw BillingError.subscriptionExists(options.name);
      });
    return this.model(row, owner);
  }

  async swap(sub: Subscription, plan: string): Promise<SubscriptionRow> {
    if (sub.ended()) throw BillingError.subscriptionCancelled('swap');
    // Cashier's swap also undoes a pending cancellation; a provider may resume by re-creating, so
    // the swap goes on with the id the resume returns (Braintree after a cancel in a trial).
    let providerId = sub.providerId;
    if (sub.onGracePeriod())
      providerId = (await this.gateway.resumeSubscription(providerId, this.resumeContext(sub))).id;
    const trialEndsAt = sub.onTrial() ? new Date(sub.trial_ends_at!) : null;
    const remote = await this.gateway.updateSubscription(providerId, {
      plan,
      quantity: this.caps.supportsQuantities ? (sub.quantity ?? 1) : undefined,
      trialEndsAt,
      idempotencyKey: randomUUID(),
    });
    return this.repository.update(sub.id, {
      [this.caps.columns.subscriptionId]: remote.id,
      [this.caps.columns.subscriptionPlan]: remote.plan,
      trial_ends_at: iso(trialEndsAt),
      ends_at: null,
    });
  }

  async updateQuantity(sub: Subscription, quantity: number): Promise<SubscriptionRow> {
    if (!this.caps.supportsQuantities) {
      throw BillingError.unsupportedByEdition('Subscription quantities', this.caps.edition);
    }
    this.checkQuantity(quantity);
    if (sub.ended()) throw BillingError.subscriptionCancelled('change the quantity of');
    const remote = await this.gateway.updateSubscription(sub.providerId, {
      quantity,
      idempotencyKey: randomUUID(),
    });
    return this.repository.update(sub.id, { quantity: remote.quantity });
  }

  async cancel(sub: Subscription): Promise<SubscriptionRow> {
    if (sub.ended()) return this.repository.update(sub.id, {});
    const remote = await this.gateway.cancelSubscription(sub.providerId, { atPeriodEnd: true });
    // In a trial the grace period ends with the trial; otherwise with the paid period.
    const endsAt = sub.onTrial() ? sub.trial_ends_at : iso(remote.currentPeriodEnd ?? this.clock.now());
    return this.repository.update(sub.id, { ends_at: endsAt });
  }

  async cancelNow(sub: Subscription): Promise<SubscriptionRow> {
    // Already over (the provider ended it, or the grace period ran out): nothing left to cancel there.
    if (sub.ended()) return this.repository.update(sub.id, {});
    await this.gateway.cancelSubscription(sub.providerId, { atPeriodEnd: false });
    return this.repository.update(sub.id, { ends_at: this.clock.now().toISOString() });
  }

  async resume(sub: Subscription): Promise<SubscriptionRow> {
    // The spec leaves resume outside the grace period unspecified; Cashier throws, so do we.
    if (!sub.onGracePeriod()) throw BillingError.notOnGracePeriod();
    const remote = await this.gateway.resumeSubscription(sub.providerId, this.resumeContext(sub));
    return this.repository.update(sub.id, {
      [this.caps.columns.subscriptionId]: remote.id,
      ends_at: null,
    });
  }

  async syncTaxPercentage(sub: Subscription): Promise<SubscriptionRow> {
    const owner = owners.get(sub);
    if (!owner) throw new Error('Subscription has no owner.');
    const taxPercentage = validateTaxPercentage(owner.taxPercentage());
    await this.gateway.updateSubscription(sub.providerId, { taxPercentage, idempotencyKey: randomUUID() });
    return this.repository.update(sub.id, {});
  }

  async asProviderSubscription(sub: Subscription): Promise<GatewaySubscription> {
    const remote = await this.gateway.findSubscription(sub.providerId);
    if (!remote) throw BillingError.subscriptionNotFound(sub.name);
    return remote;
  }

  /** The provider said the subscription is over (too many failed charges, deleted): end it now. */
  async markCancelledByProvider(providerId: string): Promise<number> {
    const rows = await this.repository.findByProviderId(this.caps.columns.subscriptionId, providerId);
    const now = this.clock.now();
    let changed = 0;
    for (const row of rows) {
      if (row.ends_at !== null && new Date(row.ends_at) <= now) continue;
      await this.repository.update(row.id, { ends_at: now.toISOString() });
      changed++;
    }
    return changed;
  }

  private resumeContext(sub: Subscription) {
    return {
      plan: sub.plan,
      quantity: sub.quantity ?? 1,
      trialEndsAt: sub.onTrial() ? new Date(sub.trial_ends_at!) : null,
      idempotencyKey: randomUUID(),
    };
  }

  private checkQuantity(quantity: number): void {
    if (!Number.isInteger(quantity) || quantity < 1) throw BillingError.invalidQuantity(quantity);
    if (quantity !== 1 && !this.caps.supportsQuantities) {
      throw BillingError.unsupportedByEdition('Subscription quantities', this.caps.edition);
    }
  }
}

// Which user a Subscription belongs to, for tax sync, without widening the model's public shape.
const owners = new WeakMap<Subscription, BillableUser>();

function iso(date: Date | null | string): string | null {
  if (date === null) return null;
  return typeof date === 'string' ? date : date.toISOString();
}
