import type { Clock } from '../../core/clock.js';
import type { BillableModel } from '../billable-user.js';
import type { EditionColumns } from '../gateway/capabilities.js';
import type { GatewaySubscription } from '../gateway/payment-gateway.js';
import type { SubscriptionRow } from '../tables.js';
import type { StatusOptions, SubscriptionStatus } from './provider-status.js';
import type { SubscriptionRecord } from './record.js';
import * as status from './status.js';

/** The operations a Subscription hands to the service (`Subscriptions`); each returns the record saved. */
export interface SubscriptionOperations {
  swap(record: SubscriptionRecord, plan: string): Promise<SubscriptionRecord>;
  updateQuantity(record: SubscriptionRecord, quantity: number): Promise<SubscriptionRecord>;
  updateSeats(
    record: SubscriptionRecord,
    seats: () => Promise<number>,
    addOn?: string,
  ): Promise<SubscriptionRecord>;
  cancel(record: SubscriptionRecord): Promise<SubscriptionRecord>;
  cancelNow(record: SubscriptionRecord): Promise<SubscriptionRecord>;
  resume(record: SubscriptionRecord): Promise<SubscriptionRecord>;
  syncTaxPercentage(record: SubscriptionRecord, owner: BillableModel): Promise<SubscriptionRecord>;
  asProviderSubscription(record: SubscriptionRecord): Promise<GatewaySubscription>;
}

/** Everything a Subscription needs, given when it is made. */
export interface SubscriptionContext {
  readonly owner: BillableModel;
  readonly clock: Clock;
  /** The edition's columns, for the row-shaped attributes (`stripe_id`, `braintree_plan`, …). */
  readonly columns: EditionColumns;
  readonly operations: SubscriptionOperations;
  readonly statusOptions: StatusOptions;
}

/**
 * One subscription of a user: the spec's record plus its operations. Status checks are
 * synchronous (the status rules over the record and the clock); operations go through the
 * service, which saves and returns the record this handle then holds.
 *
 * @example
 * const sub = await user.subscription('main');
 * if (sub?.onGracePeriod()) await sub.resume();
 */
export class Subscription implements SubscriptionRow {
  #record: SubscriptionRecord;
  readonly #context: SubscriptionContext;

  constructor(record: SubscriptionRecord, context: SubscriptionContext) {
    this.#record = record;
    this.#context = context;
  }

  /** The record as the billing layer keeps it, edition-neutral. */
  get record(): SubscriptionRecord {
    return this.#record;
  }

  get id(): number {
    return this.#record.id;
  }
  get user_id(): number | null {
    return this.#record.userId;
  }
  /** `user`, or the billable model that owns it (`organization`). */
  get billable_type(): string {
    return this.#record.billableType;
  }
  get billable_id(): number {
    return this.#record.billableId;
  }
  get name(): string {
    return this.#record.name;
  }
  get stripe_id(): string | null {
    return this.#column('stripe_id', this.#record.providerId);
  }
  get stripe_plan(): string | null {
    return this.#column('stripe_plan', this.#record.plan);
  }
  get braintree_id(): string | null {
    return this.#column('braintree_id', this.#record.providerId);
  }
  get braintree_plan(): string | null {
    return this.#column('braintree_plan', this.#record.plan);
  }
  get quantity(): number | null {
    return this.#record.quantity;
  }
  get trial_ends_at(): string | null {
    return this.#record.trialEndsAt;
  }
  get ends_at(): string | null {
    return this.#record.endsAt;
  }
  /** The provider's status (`active`, `trialing`, `past_due`, `unpaid`, `canceled`, …). */
  get status(): SubscriptionStatus {
    return this.#record.status;
  }
  get provider_updated_at(): string | null {
    return this.#record.providerUpdatedAt;
  }
  get past_due_since(): string | null {
    return this.#record.pastDueSince ?? null;
  }
  get created_at(): string {
    return this.#record.createdAt;
  }
  get updated_at(): string {
    return this.#record.updatedAt;
  }

  /** The subscription's id at the payment provider (`stripe_id` or `braintree_id`). */
  get providerId(): string {
    return this.#record.providerId;
  }

  /** The plan id at the payment provider (`stripe_plan` or `braintree_plan`). */
  get plan(): string {
    return this.#record.plan;
  }

  valid(): boolean {
    return status.valid(this.#record, this.#now(), this.#context.statusOptions);
  }
  active(): boolean {
    return status.active(this.#record, this.#now());
  }
  onTrial(): boolean {
    return status.onTrial(this.#record, this.#now());
  }
  cancelled(): boolean {
    return status.cancelled(this.#record);
  }
  onGracePeriod(): boolean {
    return status.onGracePeriod(this.#record, this.#now());
  }
  ended(): boolean {
    return status.ended(this.#record, this.#now());
  }
  onPlan(plan: string): boolean {
    return this.plan === plan;
  }

  /** Changes plan, keeping the trial and the quantity; resumes a subscription in its grace period. */
  async swap(plan: string): Promise<this> {
    return this.#hold(await this.#context.operations.swap(this.#record, plan));
  }

  async incrementQuantity(count = 1): Promise<this> {
    return this.updateQuantity((this.quantity ?? 1) + count);
  }

  /** Never below 1. */
  async decrementQuantity(count = 1): Promise<this> {
    return this.updateQuantity(Math.max(1, (this.quantity ?? 1) - count));
  }

  async updateQuantity(quantity: number): Promise<this> {
    return this.#hold(await this.#context.operations.updateQuantity(this.#record, quantity));
  }

  /**
   * Bills `seats` seats (a per-seat plan: an organization's members). `seats` may be a function,
   * called under the owner's billing lock, so of two changes at once the later counts last and the
   * provider ends up with the true count. Editions with quantities set the quantity (the provider
   * prorates); others (Braintree) bill the plan as the first seat and `addOn` for each other seat.
   */
  async updateSeats(
    seats: number | (() => Promise<number>),
    options: { addOn?: string } = {},
  ): Promise<this> {
    const count = typeof seats === 'number' ? () => Promise.resolve(seats) : seats;
    return this.#hold(await this.#context.operations.updateSeats(this.#record, count, options.addOn));
  }

  /** Ends the trial at the next `swap` (which then bills at once). Not saved by itself, as in Cashier. */
  skipTrial(): this {
    return this.#hold({ ...this.#record, trialEndsAt: null });
  }

  /** Cancels at the end of the paid period: `ends_at` is set, and the grace period runs until then. */
  async cancel(): Promise<this> {
    return this.#hold(await this.#context.operations.cancel(this.#record));
  }

  /** Cancels at once. */
  async cancelNow(): Promise<this> {
    return this.#hold(await this.#context.operations.cancelNow(this.#record));
  }

  /** Undoes `cancel()` within the grace period; throws `not_on_grace_period` outside it. */
  async resume(): Promise<this> {
    return this.#hold(await this.#context.operations.resume(this.#record));
  }

  /** Applies the owner's current `taxPercentage()` to future subscription charges. */
  async syncTaxPercentage(): Promise<this> {
    return this.#hold(await this.#context.operations.syncTaxPercentage(this.#record, this.#context.owner));
  }

  /** The subscription as the payment provider sees it now. */
  asProviderSubscription(): Promise<GatewaySubscription> {
    return this.#context.operations.asProviderSubscription(this.#record);
  }

  toJSON(): SubscriptionRow {
    const {
      id,
      user_id,
      billable_type,
      billable_id,
      name,
      stripe_id,
      stripe_plan,
      braintree_id,
      braintree_plan,
    } = this;
    const { quantity, trial_ends_at, ends_at, status, provider_updated_at, past_due_since } = this;
    const { created_at, updated_at } = this;
    return {
      id,
      user_id,
      billable_type,
      billable_id,
      name,
      stripe_id,
      stripe_plan,
      braintree_id,
      braintree_plan,
      quantity,
      trial_ends_at,
      ends_at,
      status,
      provider_updated_at,
      past_due_since,
      created_at,
      updated_at,
    };
  }

  #now(): Date {
    return this.#context.clock.now();
  }

  #hold(record: SubscriptionRecord): this {
    this.#record = record;
    return this;
  }

  /** The edition's own column holds `value`; the other edition's columns are empty. */
  #column(column: keyof SubscriptionRow, value: string): string | null {
    const { subscriptionId, subscriptionPlan } = this.#context.columns;
    return column === subscriptionId || column === subscriptionPlan ? value || null : null;
  }
}
