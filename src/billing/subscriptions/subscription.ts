import type { Clock } from '../../core/clock.js';
import type { GatewaySubscription } from '../gateway/payment-gateway.js';
import type { SubscriptionRow } from '../tables.js';
import * as status from './status.js';

/** What a Subscription asks of the billing services; implemented by `Subscriptions`. */
export interface SubscriptionActions {
  readonly clock: Clock;
  swap(subscription: Subscription, plan: string): Promise<SubscriptionRow>;
  updateQuantity(subscription: Subscription, quantity: number): Promise<SubscriptionRow>;
  cancel(subscription: Subscription): Promise<SubscriptionRow>;
  cancelNow(subscription: Subscription): Promise<SubscriptionRow>;
  resume(subscription: Subscription): Promise<SubscriptionRow>;
  syncTaxPercentage(subscription: Subscription): Promise<SubscriptionRow>;
  asProviderSubscription(subscription: Subscription): Promise<GatewaySubscription>;
  providerId(row: SubscriptionRow): string;
  plan(row: SubscriptionRow): string;
}

/**
 * One subscription of a user: the spec's record plus its operations. Status checks are
 * synchronous (they read the record and the clock); operations go through the provider and save.
 *
 * @example
 * const sub = await user.subscription('main');
 * if (sub?.onGracePeriod()) await sub.resume();
 */
export class Subscription implements SubscriptionRow {
  id!: number;
  user_id!: number;
  name!: string;
  stripe_id!: string | null;
  stripe_plan!: string | null;
  braintree_id!: string | null;
  braintree_plan!: string | null;
  quantity!: number | null;
  trial_ends_at!: string | null;
  ends_at!: string | null;
  created_at!: string;
  updated_at!: string;
  readonly #actions: SubscriptionActions;

  constructor(row: SubscriptionRow, actions: SubscriptionActions) {
    this.#actions = actions;
    Object.assign(this, row);
  }

  fill(row: SubscriptionRow): this {
    Object.assign(this, row);
    return this;
  }

  /** The subscription's id at the provider (`stripe_id` or `braintree_id`). */
  get providerId(): string {
    return this.#actions.providerId(this);
  }

  /** The plan id at the provider (`stripe_plan` or `braintree_plan`). */
  get plan(): string {
    return this.#actions.plan(this);
  }

  private get now(): Date {
    return this.#actions.clock.now();
  }

  valid(): boolean {
    return status.valid(this, this.now);
  }
  active(): boolean {
    return status.active(this, this.now);
  }
  onTrial(): boolean {
    return status.onTrial(this, this.now);
  }
  cancelled(): boolean {
    return status.cancelled(this);
  }
  onGracePeriod(): boolean {
    return status.onGracePeriod(this, this.now);
  }
  ended(): boolean {
    return status.ended(this, this.now);
  }
  onPlan(plan: string): boolean {
    return this.plan === plan;
  }

  /** Changes plan, keeping the trial and the quantity; resumes a subscription in its grace period. */
  async swap(plan: string): Promise<this> {
    return this.fill(await this.#actions.swap(this, plan));
  }

  async incrementQuantity(count = 1): Promise<this> {
    return this.updateQuantity((this.quantity ?? 1) + count);
  }

  /** Never below 1. */
  async decrementQuantity(count = 1): Promise<this> {
    return this.updateQuantity(Math.max(1, (this.quantity ?? 1) - count));
  }

  async updateQuantity(quantity: number): Promise<this> {
    return this.fill(await this.#actions.updateQuantity(this, quantity));
  }

  /** Ends the trial at the next `swap` (which then bills at once). Not saved by itself, as in Cashier. */
  skipTrial(): this {
    this.trial_ends_at = null;
    return this;
  }

  /** Cancels at the end of the paid period: `ends_at` is set, and the grace period runs until then. */
  async cancel(): Promise<this> {
    return this.fill(await this.#actions.cancel(this));
  }

  /** Cancels at once. */
  async cancelNow(): Promise<this> {
    return this.fill(await this.#actions.cancelNow(this));
  }

  /** Undoes `cancel()` within the grace period; throws `not_on_grace_period` outside it. */
  async resume(): Promise<this> {
    return this.fill(await this.#actions.resume(this));
  }

  /** Applies the owner's current `taxPercentage()` to future subscription charges. */
  async syncTaxPercentage(): Promise<this> {
    return this.fill(await this.#actions.syncTaxPercentage(this));
  }

  /** The subscription as the provider sees it now. */
  asProviderSubscription(): Promise<GatewaySubscription> {
    return this.#actions.asProviderSubscription(this);
  }

  toJSON(): SubscriptionRow {
    const { id, user_id, name, stripe_id, stripe_plan, braintree_id, braintree_plan } = this;
    const { quantity, trial_ends_at, ends_at, created_at, updated_at } = this;
    return {
      id,
      user_id,
      name,
      stripe_id,
      stripe_plan,
      braintree_id,
      braintree_plan,
      quantity,
      trial_ends_at,
      ends_at,
      created_at,
      updated_at,
    };
  }
}
