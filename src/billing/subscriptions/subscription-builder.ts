import type { BillableModel } from '../billable-user.js';
import type { CheckoutOptions, CheckoutSession, Checkouts } from '../checkout/checkouts.js';
import type { Subscription } from './subscription.js';
import type { NewSubscriptionOptions, Subscriptions } from './subscriptions.js';

/**
 * `user.newSubscription(name, plan)`: collect the options, then `create(token, details?)`.
 *
 * @example
 * await user.newSubscription('main', 'pro-monthly').trialDays(14).withCoupon('LAUNCH20').create('tok_visa');
 */
export class SubscriptionBuilder {
  readonly #options: NewSubscriptionOptions;

  constructor(
    private readonly owner: BillableModel,
    private readonly subscriptions: Subscriptions,
    name: string,
    plan: string,
    private readonly checkouts?: Checkouts,
  ) {
    this.#options = { name, plan, quantity: 1, trialDays: null, skipTrial: false, coupon: null };
  }

  /** Seats (Stripe edition only; Braintree throws `unsupported_by_edition` at `create`). */
  quantity(quantity: number): this {
    this.#options.quantity = quantity;
    return this;
  }

  /** A trial with the card taken up front: the provider bills when it ends. */
  trialDays(days: number): this {
    this.#options.trialDays = days;
    this.#options.skipTrial = false;
    return this;
  }

  /** No trial, even if the plan has one by default. */
  skipTrial(): this {
    this.#options.skipTrial = true;
    return this;
  }

  withCoupon(coupon: string): this {
    this.#options.coupon = coupon;
    return this;
  }

  /** Starts the subscription. `details` go to the provider's customer creation. */
  create(token: string | null = null, details: Record<string, unknown> = {}): Promise<Subscription> {
    return this.subscriptions.create(this.owner, { ...this.#options }, token, details);
  }

  /**
   * Subscribes on the provider's hosted Checkout page instead (Stripe edition): redirect the
   * customer to the returned `url`. The subscription is stored when `checkout.session.completed`
   * arrives or the customer returns to `successUrl` (`user.completeCheckout(sessionId)`).
   *
   * @example
   * const { url } = await user.newSubscription('main', 'pro-monthly').trialDays(14).checkout({
   *   successUrl: 'https://app.test/billing/checkout/success?session_id={CHECKOUT_SESSION_ID}',
   *   cancelUrl: 'https://app.test/billing',
   * });
   */
  checkout(options: CheckoutOptions): Promise<CheckoutSession> {
    if (!this.checkouts) throw new TypeError('checkout() needs the billing services (a Billable user)');
    return this.checkouts.subscription(this.owner, { ...this.#options }, options);
  }

  /** Same as `create(null)`: for a customer whose card is already on file. */
  add(details: Record<string, unknown> = {}): Promise<Subscription> {
    return this.create(null, details);
  }
}
