import { InjectionKey } from '../../core/container.js';
import type { SubscriptionStatus } from '../subscriptions/provider-status.js';
import type { GatewayCapabilities } from './capabilities.js';

/**
 * The payment port: the one seam between the billing layer and a payment provider (Stripe,
 * Braintree). Everything edition-specific is either an implementation of this interface (in
 * `gateway/<edition>/`) or data in `capabilities`; the Billable API, the Subscription handle,
 * invoices, PDFs and the webhook controller are shared.
 *
 * Conventions:
 * - Amounts *passed in* (`charge`, `invoiceFor`) are in `capabilities.amountUnit` — the spec's unit
 *   for the edition. Amounts *returned* (`GatewayInvoice`) are integers in minor units, always.
 * - Failures throw `BillingError` (a declined card is `card_declined` with the provider's message
 *   and code); nothing provider-typed escapes.
 * - Every creating call receives an `idempotencyKey`; pass it to the provider if it supports one.
 */
export interface PaymentGateway {
  readonly capabilities: GatewayCapabilities;

  createCustomer(input: CreateCustomerInput): Promise<GatewayCustomer>;
  /** Makes `token` the customer's default payment method (`updateCard`). */
  updatePaymentMethod(customerId: string, token: string, idempotencyKey: string): Promise<GatewayCustomer>;

  /** Starts a subscription; must not leave one behind when the first payment fails. */
  createSubscription(input: CreateSubscriptionInput): Promise<GatewaySubscription>;
  /** Plan swap, quantity change, tax change. The returned `id` may differ (a provider that swaps by re-creating). */
  updateSubscription(id: string, changes: SubscriptionChanges): Promise<GatewaySubscription>;
  /** `atPeriodEnd`: keep it running to the end of the paid period (grace); otherwise end it now. */
  cancelSubscription(id: string, options: { atPeriodEnd: boolean }): Promise<GatewaySubscription>;
  /**
   * Ends an attempt whose first payment waits for the customer (3-D Secure) so that payment can no
   * longer be made — a confirmation page left open must not charge for it: Stripe voids its open
   * invoice first (which cancels its PaymentIntent), then cancels it. Answers the subscription as
   * it is then (live when the customer paid before the void), or null when the provider has none
   * (Braintree makes it only once the payment is completed).
   */
  abandonSubscription(id: string): Promise<GatewaySubscription | null>;
  /** Undo a cancel-at-period-end while the period still runs: no charge, same billing cycle. */
  resumeSubscription(id: string, context: ResumeContext): Promise<GatewaySubscription>;
  findSubscription(id: string): Promise<GatewaySubscription | null>;
  /**
   * Every subscription of the customer, in any status (Stripe `subscriptions.list({ customer,
   * status: 'all' })`; Braintree the subscriptions of `customer.find`'s payment methods): what
   * `billing:reconcile` compares the local rows with.
   */
  listSubscriptions(customerId: string): Promise<GatewaySubscription[]>;
  /** The customer, or null when the provider has none with that id (deleted or never made). */
  findCustomer(id: string): Promise<GatewayCustomer | null>;
  /**
   * A provider that swaps by re-creating (Braintree across billing frequencies): the live
   * subscription that replaced `id`, if any, following repeated swaps. Absent: never replaces.
   */
  successorOf?(id: string): Promise<GatewaySubscription | null>;

  /** A one-off charge; returns the provider's full response. */
  charge(input: ChargeInput): Promise<ChargeResponse>;
  /** A one-off charge billed at once with an invoice. A failed payment throws with `invoiceId` set. */
  invoiceFor(input: InvoiceForInput): Promise<GatewayInvoice>;
  /** Closes an unpaid invoice so the provider stops retrying it (Stripe: void). */
  voidInvoice(id: string): Promise<GatewayInvoice>;
  /** Newest first. `includePending`: also drafts and open (unpaid) invoices. */
  invoices(customerId: string, options: { includePending: boolean }): Promise<GatewayInvoice[]>;
  /** The invoice, only if it belongs to `customerId`. */
  findInvoice(customerId: string, id: string): Promise<GatewayInvoice | null>;
  /** The next invoice the provider would bill (for that subscription, when given), if any. */
  upcomingInvoice(customerId: string, subscriptionId?: string): Promise<GatewayInvoice | null>;

  /**
   * Strong customer authentication (an edition with `capabilities.supportsPaymentConfirmation`):
   * a SetupIntent to collect a card with, the PaymentMethod it saved, a payment by id, and the
   * payment a subscription's latest invoice is waiting on.
   */
  createSetupIntent?(input: {
    customerId: string | null;
    idempotencyKey: string;
  }): Promise<GatewaySetupIntent>;
  findSetupIntent?(id: string): Promise<GatewaySetupIntent | null>;
  findPayment?(id: string): Promise<GatewayPayment | null>;
  latestPayment?(subscriptionId: string): Promise<GatewayPayment | null>;
  /**
   * Pays a payment that waits for the customer with what their 3-D Secure verification gave
   * (Braintree: the verified nonce from the Drop-in's `verifyCard`); Stripe confirms in the browser.
   */
  completePayment?(id: string, verification: string): Promise<GatewayPayment>;

  /**
   * Metered usage for the subscription's next bill (`capabilities.supportsUsageReporting`): Stripe
   * sends a meter event of `increment` units under `identifier` (a repeat counts once); Braintree
   * sets the add-on's quantity to `total` for the next bill, never lowering it within a period.
   * Either adds the metered price or add-on to the subscription on first use.
   */
  reportUsage?(report: UsageReport): Promise<void>;

  /**
   * Sets how many of add-on `addOn` a subscription bills from now on (Braintree, which has no
   * quantities: a seat add-on); 0 removes it. The subscription as it is afterwards.
   */
  setAddOnQuantity?(subscriptionId: string, addOn: string, quantity: number): Promise<GatewaySubscription>;

  /**
   * Hosted pages (an edition with `capabilities.supportsHostedCheckout`): a Checkout Session the
   * customer pays on, the session as it is now (what a completed one made), and a customer portal
   * session whose `url` the customer is sent to.
   */
  createCheckoutSession?(input: CheckoutSessionInput): Promise<GatewayCheckoutSession>;
  findCheckoutSession?(id: string): Promise<GatewayCheckoutSession | null>;
  createBillingPortalSession?(input: { customerId: string; returnUrl: string }): Promise<{ url: string }>;

  /** Verifies authenticity (throws `invalid_webhook_signature`) and names the event. */
  parseWebhook(request: WebhookRequest): Promise<WebhookEvent>;

  /** Releases what the gateway holds (an embedded sandbox, sockets). */
  close?(): Promise<void>;
}

export interface CreateCustomerInput {
  /** A PaymentMethod (Stripe `pm_…`), a card token (Stripe `tok_…`) or payment-method nonce (Braintree). */
  token: string | null;
  email: string;
  name: string;
  /** Passed through to the provider's customer creation (the spec's `details` array). */
  details: Record<string, unknown>;
  idempotencyKey: string;
}

/** The default payment method as the user record stores it. */
export interface GatewayCustomer {
  id: string;
  cardBrand: string | null;
  cardLastFour: string | null;
  paypalEmail: string | null;
}

export interface CreateSubscriptionInput {
  customerId: string;
  plan: string;
  /** Always 1 when the edition has no quantities. */
  quantity: number;
  /** Trial end (card up front); null: no trial, bill now. */
  trialEndsAt: Date | null;
  coupon: string | null;
  /** 0–100, two decimals at most, already validated; 0 means no tax. */
  taxPercentage: number;
  idempotencyKey: string;
  /** The subscription's local name, kept at the provider where it can be (Stripe `metadata.name`). */
  name?: string;
}

export interface SubscriptionChanges {
  plan?: string;
  quantity?: number;
  /** Keep (or set) a trial until this date; null ends any trial now. Omitted: unchanged. */
  trialEndsAt?: Date | null;
  taxPercentage?: number;
  /** Prorate the change (default true, as Cashier does). */
  prorate?: boolean;
  idempotencyKey: string;
}

export interface ResumeContext {
  plan: string;
  quantity: number;
  trialEndsAt: Date | null;
  idempotencyKey: string;
}

/** Usage of a metered price in the subscription's current period (see `reportUsage`). */
export interface UsageReport {
  customerId: string;
  subscriptionId: string;
  /** The metered price (Stripe `price_…`, with a Billing Meter) or the add-on id (Braintree). */
  price: string;
  /** Units since the previous report of this period: what a Stripe meter sums. */
  increment: number;
  /** Every unit of the period so far, `increment` included: the Braintree add-on's quantity. */
  total: number;
  /** Per unit, in minor units, overriding the add-on's amount (Braintree); Stripe's price has its own. */
  unitAmount?: number;
  /** When the usage happened: inside the subscription's current period. */
  timestamp: Date;
  /** Stable for this report (user, meter, period, running total): retried, it counts once. */
  identifier: string;
}

/** A subscription as the provider reports it, in the billing layer's terms. */
export interface GatewaySubscription {
  id: string;
  plan: string;
  quantity: number;
  /** The provider's status in the neutral vocabulary (Braintree's words are mapped by its gateway). */
  status: SubscriptionStatus;
  trialEndsAt: Date | null;
  /** End of the paid (or trial) period: where a grace period ends. */
  currentPeriodEnd: Date | null;
  /** Start of the current billing period (metered usage is counted from it), when the provider says. */
  currentPeriodStart?: Date | null;
  cancelAtPeriodEnd: boolean;
  endedAt: Date | null;
  /** The local name it was created under, when the provider keeps it (Stripe `metadata.name`). */
  name?: string | null;
  /**
   * When this state was current, on the provider's clock (Stripe: the answer's `Date` header;
   * Braintree: the subscription's `updatedAt`). Local rows are stamped with it, so webhooks (whose
   * times are the provider's too) are ordered against provider time only, never the app's clock.
   */
  asOf?: Date | null;
  /**
   * Set by `createSubscription`/`updateSubscription` when the payment they caused waits for the
   * customer (3-D Secure): the caller stores the state and throws `IncompletePayment`.
   */
  pendingPayment?: GatewayPayment;
}

/**
 * Statuses of a payment that may need the customer, in Stripe's PaymentIntent words
 * (https://docs.stripe.com/payments/paymentintents/lifecycle).
 */
export type PaymentStatus =
  | 'requires_payment_method'
  | 'requires_confirmation'
  | 'requires_action'
  | 'processing'
  | 'requires_capture'
  | 'succeeded'
  | 'canceled';

/** A payment (Stripe: a PaymentIntent), as `IncompletePayment` and the confirmation page see it. */
export interface GatewayPayment {
  id: string;
  /** What the browser confirms it with (Stripe.js `confirmCardPayment`). */
  clientSecret: string | null;
  status: PaymentStatus;
  /** Minor units. */
  amount: number;
  currency: string;
  customerId: string | null;
  /** The provider's page for the customer's action, if it gives one (the sandbox's challenge page). */
  actionUrl: string | null;
  /** Why the last attempt failed (the provider's message), if it did. */
  failureMessage: string | null;
  /** The invoice and subscription this pays, if any. */
  invoiceId: string | null;
  subscriptionId: string | null;
}

/** A SetupIntent: collects a card for later payments (Stripe.js Elements or the sandbox's card page). */
export interface GatewaySetupIntent {
  id: string;
  clientSecret: string;
  status: string;
  customerId: string | null;
  /** The saved PaymentMethod, once it succeeded. */
  paymentMethod: string | null;
  /** The sandbox's card page for it (offline only; with real keys the page uses Stripe.js). */
  cardPageUrl: string | null;
}

/** One thing sold on a Checkout page: a catalog price, or (one-off payments) an amount and a name. */
export type CheckoutItem =
  | { price: string; quantity: number }
  | { amount: number; currency: string; name: string; quantity: number };

export interface CheckoutSessionInput {
  /** `subscription`: starts `subscription.name`; `payment`: a one-off payment. */
  mode: 'subscription' | 'payment';
  customerId: string;
  items: CheckoutItem[];
  /** May contain `{CHECKOUT_SESSION_ID}`, which the provider replaces with the session id. */
  successUrl: string;
  cancelUrl: string | null;
  /** The local user id: how the completed session finds its user again. */
  clientReferenceId: string;
  metadata: Record<string, string>;
  subscription?: {
    /** The local subscription name, kept at the provider (Stripe `subscription_data[metadata][name]`). */
    name: string;
    trialDays: number | null;
    coupon: string | null;
    taxPercentage: number;
  };
  idempotencyKey: string;
}

/** A Checkout Session in the billing layer's terms. */
export interface GatewayCheckoutSession {
  id: string;
  /** The hosted page to send the customer to; null once complete or expired. */
  url: string | null;
  mode: 'subscription' | 'payment' | 'setup';
  status: 'open' | 'complete' | 'expired';
  /** `paid`, `unpaid`, or `no_payment_required` (a trial). */
  paymentStatus: string;
  customerId: string | null;
  clientReferenceId: string | null;
  /** Subscription mode, once complete: the subscription it made, as it is now. */
  subscription: GatewaySubscription | null;
  /** The payment method the customer paid with (Stripe `pm_…`), when the provider reports it. */
  paymentMethodId: string | null;
  /** Payment mode: the payment's id (Stripe: the PaymentIntent). */
  paymentId: string | null;
  amountTotal: number | null;
  currency: string | null;
}

export interface ChargeInput {
  /** Null when the user is not a customer yet: the options must then carry a payment source. */
  customerId: string | null;
  /** In `capabilities.amountUnit`. */
  amount: number;
  /**
   * Passed through to the provider (`description`, `metadata`, `receipt_email`, …). Always carries
   * `currency` (the configured code, unless the caller gave one); drop it if the API has no such field.
   */
  options: Record<string, unknown>;
  idempotencyKey: string;
}

/** The provider's full response to a charge. */
export type ChargeResponse = { id: string } & Record<string, unknown>;

export interface InvoiceForInput {
  customerId: string;
  description: string;
  /** In `capabilities.amountUnit`. */
  amount: number;
  options: Record<string, unknown>;
  idempotencyKey: string;
}

export interface GatewayInvoiceLine {
  description: string;
  /** Minor units. */
  amount: number;
  quantity: number | null;
  periodStart: Date | null;
  periodEnd: Date | null;
  /** `subscription` lines are plan charges; `item` lines are one-off invoice items. */
  kind: 'subscription' | 'item';
}

/** An invoice in the billing layer's terms; all amounts are minor units. */
export interface GatewayInvoice {
  id: string;
  number: string | null;
  customerId: string;
  date: Date;
  status: 'draft' | 'open' | 'paid' | 'void' | 'uncollectible';
  currency: string;
  subtotal: number;
  /** Total discount amount (positive). */
  discount: number;
  /** The coupon(s) behind the discount, for display (`LAUNCH20 (20% off)`). */
  discountDescription: string | null;
  tax: number;
  taxPercentage: number | null;
  total: number;
  /** Balance applied from earlier credit (negative reduces the total). */
  startingBalance: number;
  lines: GatewayInvoiceLine[];
  /** The provider's own object, for anything not mapped above. */
  raw: unknown;
}

/** What a webhook receiver hands the gateway to verify. */
export interface WebhookRequest {
  body: string;
  headers: Headers;
  /** The parsed form fields, for providers that post forms (Braintree `bt_signature`/`bt_payload`). */
  form?: Record<string, string>;
}

export interface WebhookEvent {
  /** Unique per event at the provider: the idempotency key of processing. */
  id: string;
  /** `invoice.payment_succeeded` (Stripe) or `subscription_charged_unsuccessfully` (Braintree). */
  name: string;
  /** When the provider created the event (Stripe's `created`, Braintree's `timestamp`): the webhook lag's start. */
  createdAt?: Date;
  /** What the handler receives: the event as an object (Stripe) or the parsed notification (Braintree). */
  payload: unknown;
  /** The provider subscription this event is about, if any (default handlers cancel it). */
  subscriptionId: string | null;
  /** For events that carry the subscription's state: what the receiver applies to the local row. */
  sync?: SubscriptionSync;
  /**
   * A completed Checkout Session (Stripe `checkout.session.completed`): the receiver fetches the
   * session as it is now and stores the subscription it made, once, in the claim's transaction.
   */
  checkoutSessionId?: string;
  /**
   * What the gateway itself keeps of the event, run before the event is claimed (Braintree freezes
   * a renewal's invoice). Idempotent; a failure answers 500, so the provider redelivers.
   */
  record?: () => Promise<void>;
}

/** A subscription's state as a webhook event reports it (see `ProviderUpdates.applyProviderState`). */
export interface SubscriptionSync {
  subscription: GatewaySubscription;
  /** When that state was current at the provider (Stripe: the event's `created`; Braintree: its timestamp). */
  at: Date;
  /** The provider ended the subscription (Stripe: deleted; Braintree: canceled or expired). */
  ended: boolean;
  /**
   * No local row with that id: `retry` answers 5xx and records nothing, so the provider redelivers
   * once the row exists; `acknowledge` records the event (nothing to end, or the call that made the
   * subscription stores the same state from its own answer).
   */
  whenUnknown: 'retry' | 'acknowledge';
  /**
   * The ended subscription was replaced by this live one (a swap by re-creating): rows on the old
   * id move to it and take its state instead of ending, so a swap whose local write failed does
   * not lock a paying customer out.
   */
  replacedBy?: GatewaySubscription;
  /**
   * Only `subscription.id` is meaningful (an invoice event names its subscription): the receiver
   * fetches the subscription, and decides `ended`/`whenUnknown` from its current status.
   */
  stub?: boolean;
}

/** Container key for the application's payment gateway. */
export const PaymentGatewayKey = new InjectionKey<PaymentGateway>('PaymentGateway');

/** @deprecated The payment port's old name: use `PaymentGateway`. */
export type BillingProvider = PaymentGateway;

/** @deprecated The payment port's old key: use `PaymentGatewayKey` (the same key). */
export const BillingProviderKey = PaymentGatewayKey;
