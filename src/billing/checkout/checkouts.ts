import type { Kysely } from 'kysely';
import type { TollgateConfig } from '../../core/config.js';
import { ConfigKey, LoggerKey } from '../../core/keys.js';
import type { Logger } from '../../core/logger.js';
import { DbKey } from '../../database/keys.js';
import type { Database } from '../../database/types.js';
import { type BillableModel, refOf } from '../billable-user.js';
import { currency } from '../currencies.js';
import { Customers } from '../customers/customers.js';
import { BillingError } from '../errors.js';
import {
  type CheckoutItem,
  type GatewayCheckoutSession,
  type PaymentGateway,
  PaymentGatewayKey,
} from '../gateway/payment-gateway.js';
import { RequestKeys } from '../request-keys.js';
import { CheckoutAdoptions } from '../subscriptions/checkout-adoption.js';
import type { Subscription } from '../subscriptions/subscription.js';
import { type NewSubscriptionOptions, Subscriptions } from '../subscriptions/subscriptions.js';
import { validateTaxPercentage } from '../tax.js';

/** Where the hosted Checkout page sends the customer back to. */
export interface CheckoutOptions {
  /** After paying; `{CHECKOUT_SESSION_ID}` in it becomes the session id (for `completeCheckout`). */
  successUrl: string;
  /** "Back" on the Checkout page. */
  cancelUrl?: string;
  /** Kept on the session (and, for a subscription, on the provider's subscription). */
  metadata?: Record<string, string>;
  /**
   * One per form render (as for `create()`): a double submit gets the same session back instead of
   * a second one the customer could also pay.
   */
  requestKey?: string;
}

/** A Checkout Session to redirect the customer to. */
export interface CheckoutSession {
  id: string;
  url: string;
}

/** What the customer's return to the success URL found. */
export interface CompletedCheckout {
  id: string;
  mode: GatewayCheckoutSession['mode'];
  /** `complete` once paid (or the trial started); `open` if the customer has not paid yet. */
  status: GatewayCheckoutSession['status'];
  paymentStatus: string;
  /** Subscription mode: the local subscription, stored now if the webhook has not yet. */
  subscription?: Subscription;
  /** Payment mode: the payment's id at the provider. */
  paymentId: string | null;
}

/** A price id, or a price with a quantity; several for one Checkout payment. */
export type CheckoutPrices =
  | string
  | { price: string; quantity?: number }
  | Array<string | { price: string; quantity?: number }>;

/**
 * The provider's hosted pages (Stripe Checkout and the customer portal; Cashier's `checkout()` and
 * `billingPortalUrl()`). The customer is made first, under the user's lock, so the session, the
 * subscription it makes and the webhook all name the customer the user row holds; the subscription
 * is stored by `checkout.session.completed` or by the return to the success URL, whichever is first.
 */
export class Checkouts {
  static inject = [
    PaymentGatewayKey,
    Customers,
    Subscriptions,
    RequestKeys,
    DbKey,
    ConfigKey,
    LoggerKey,
    CheckoutAdoptions,
  ] as const;

  constructor(
    private readonly gateway: PaymentGateway,
    private readonly customers: Customers,
    private readonly subscriptions: Subscriptions,
    private readonly requestKeys: RequestKeys,
    private readonly db: Kysely<Database>,
    private readonly config: TollgateConfig,
    private readonly logger: Logger,
    private readonly adoptions: CheckoutAdoptions,
  ) {}

  /** `newSubscription(name, plan).checkout(options)`: a session in subscription mode. */
  async subscription(
    owner: BillableModel,
    options: NewSubscriptionOptions,
    checkout: CheckoutOptions,
  ): Promise<CheckoutSession> {
    this.supported('Checkout');
    if (!Number.isInteger(options.quantity) || options.quantity < 1)
      throw BillingError.invalidQuantity(options.quantity);
    const current = await this.subscriptions.find(owner, options.name);
    // One live subscription per (user, name): the page would make a second one that could not be
    // stored — also beside one whose first payment waits for 3-D Secure (confirm or replace it first).
    if (current && current.ends_at === null) throw BillingError.subscriptionExists(options.name);
    const taxPercentage = validateTaxPercentage(owner.taxPercentage());
    const trialDays = options.skipTrial
      ? null
      : (options.trialDays ??
        this.config.billing.plans.find((p) => p.id === options.plan)?.trialDays ??
        null);
    return this.start(owner, `checkout.subscription:${options.name}`, checkout, {
      mode: 'subscription',
      items: [{ price: options.plan, quantity: options.quantity }],
      subscription: { name: options.name, trialDays, coupon: options.coupon, taxPercentage },
    });
  }

  /** `user.checkout(prices, options)`: a one-off payment for catalog prices. */
  async payment(
    owner: BillableModel,
    prices: CheckoutPrices,
    checkout: CheckoutOptions,
  ): Promise<CheckoutSession> {
    this.supported('Checkout');
    const items = [prices]
      .flat()
      .map((p) =>
        typeof p === 'string' ? { price: p, quantity: 1 } : { price: p.price, quantity: p.quantity ?? 1 },
      );
    return this.start(owner, 'checkout.payment', checkout, { mode: 'payment', items });
  }

  /** `user.checkoutCharge(amount, name, options)`: a one-off payment of an amount (minor units). */
  async charge(
    owner: BillableModel,
    amount: number,
    name: string,
    quantity: number,
    checkout: CheckoutOptions,
  ): Promise<CheckoutSession> {
    this.supported('Checkout');
    const { step } = currency(this.config.billing.currency);
    if (!Number.isInteger(amount) || amount < 1 || amount % step !== 0)
      throw BillingError.invalidAmount(
        amount,
        'minor units (cents)',
        step > 1
          ? `${this.config.billing.currency.toUpperCase()} amounts are charged in multiples of ${step}`
          : undefined,
      );
    const item: CheckoutItem = { amount, currency: this.config.billing.currency, name, quantity };
    return this.start(owner, 'checkout.charge', checkout, { mode: 'payment', items: [item] });
  }

  /** The customer portal's address for this user, coming back to `returnUrl`. */
  async portalUrl(owner: BillableModel, returnUrl: string): Promise<string> {
    this.supported('The billing portal');
    const customerId = await this.customers.createOrUpdate(owner, null);
    const session = await this.gateway.createBillingPortalSession!({ customerId, returnUrl });
    return session.url;
  }

  /**
   * The customer is back at the success URL: the session as it is now, and for a subscription the
   * local row — stored here if the webhook has not stored it yet (the same idempotent step, so the
   * two together make one row). Another user's session is `checkout_session_not_found`.
   */
  async complete(owner: BillableModel, sessionId: string): Promise<CompletedCheckout> {
    this.supported('Checkout');
    const session = sessionId ? await this.gateway.findCheckoutSession!(sessionId) : null;
    const customerId = this.customers.idOf(owner);
    if (
      !session ||
      session.clientReferenceId !== Customers.referenceOf(owner) ||
      !customerId ||
      session.customerId !== customerId
    )
      throw BillingError.checkoutSessionNotFound(sessionId);
    const done: CompletedCheckout = {
      id: session.id,
      mode: session.mode,
      status: session.status,
      paymentStatus: session.paymentStatus,
      paymentId: session.paymentId,
    };
    if (session.mode !== 'subscription' || session.status !== 'complete' || !session.subscription)
      return done;
    const adoption = { session, subscription: session.subscription, user: owner };
    const subscription = await this.adoptions.adoptCheckout(this.db, adoption);
    if (subscription) done.subscription = subscription;
    else
      this.logger.error(
        { session: session.id, subscription: session.subscription.id, user: owner.id },
        'Checkout subscription not stored: the user already has a live one with that name',
      );
    try {
      await this.adoptions.keepCheckoutCard(adoption);
    } catch (err) {
      this.logger.warn({ err, session: session.id }, 'could not keep the card paid with in Checkout');
    }
    return done;
  }

  private async start(
    owner: BillableModel,
    operation: string,
    checkout: CheckoutOptions,
    what: Pick<
      Parameters<NonNullable<PaymentGateway['createCheckoutSession']>>[0],
      'mode' | 'items' | 'subscription'
    >,
  ): Promise<CheckoutSession> {
    if (!checkout?.successUrl) throw new TypeError('checkout() needs { successUrl }');
    const { requestKey, ...rest } = checkout;
    return this.requestKeys.once(refOf(owner), requestKey, {
      operation,
      params: { what, rest },
      run: async (key) => {
        const customerId = await this.customers.createOrUpdate(owner, null, {}, key);
        const session = await this.gateway.createCheckoutSession!({
          ...what,
          customerId,
          successUrl: checkout.successUrl,
          cancelUrl: checkout.cancelUrl ?? null,
          clientReferenceId: Customers.referenceOf(owner),
          metadata: checkout.metadata ?? {},
          idempotencyKey: `${key}-checkout`,
        });
        return { id: session.id, url: session.url ?? '' };
      },
      save: (session) => JSON.stringify(session),
      load: async (saved) => JSON.parse(saved) as CheckoutSession,
    });
  }

  private supported(feature: string): void {
    const { capabilities } = this.gateway;
    if (!capabilities.supportsHostedCheckout || !this.gateway.createCheckoutSession)
      throw BillingError.unsupportedByEdition(feature, capabilities.edition);
  }
}
