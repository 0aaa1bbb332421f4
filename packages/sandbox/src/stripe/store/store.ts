import type Stripe from 'stripe';
import type { SandboxClock } from '../../shared/clock.js';
import type { CheckoutExtras } from '../objects/checkout.js';
import { StripeSandboxError } from '../objects/errors.js';
import type { TestCard } from '../objects/test-cards.js';

/** How a test card behaves when charged (https://docs.stripe.com/testing#declined-payments). */
export type CardBehaviour = 'succeed' | 'decline';

/** Retry bookkeeping for an invoice whose payment failed (Stripe's "smart retries", fixed here). */
export interface RetryState {
  firstFailureAt: number;
}

/** A subscription change held until `invoice` is paid (`payment_behavior: 'pending_if_incomplete'`). */
export interface PendingUpdateState {
  invoice: string;
  held: Pick<Stripe.Subscription, 'items' | 'status' | 'trial_start' | 'trial_end' | 'billing_cycle_anchor'>;
}

/**
 * The sandbox's whole state: plain Stripe objects, typed by the SDK's own declarations, held in
 * maps. Everything the API returns is read from here, so what a test sees is what a client got.
 */
export class SandboxStore {
  readonly customers = new Map<string, Stripe.Customer>();
  readonly deletedCustomers = new Set<string>();
  readonly cards = new Map<string, Stripe.Card>();
  readonly cardBehaviour = new Map<string, CardBehaviour>();
  readonly products = new Map<string, Stripe.Product>();
  readonly plans = new Map<string, Stripe.Plan>();
  readonly prices = new Map<string, Stripe.Price>();
  readonly coupons = new Map<string, Stripe.Coupon>();
  readonly taxRates = new Map<string, Stripe.TaxRate>();
  readonly discounts = new Map<string, Stripe.Discount>();
  readonly charges = new Map<string, Stripe.Charge>();
  readonly paymentMethods = new Map<string, Stripe.PaymentMethod>();
  /** The test card behind each PaymentMethod. */
  readonly paymentMethodCards = new Map<string, TestCard>();
  /** PaymentMethods confirmed on a SetupIntent for off-session use (no 3-D Secure off-session then). */
  readonly setUpForOffSession = new Set<string>();
  readonly setupIntents = new Map<string, Stripe.SetupIntent>();
  readonly paymentIntents = new Map<string, Stripe.PaymentIntent>();
  readonly invoicePayments = new Map<string, Stripe.InvoicePayment>();
  /** Where a PaymentIntent's 3-D Secure page sends the customer back to (its `return_url`). */
  readonly returnUrls = new Map<string, string>();
  /** This sandbox's own URL as a browser reaches it (for the hosted card and 3-D Secure pages). */
  publicUrl = 'http://127.0.0.1';
  readonly subscriptions = new Map<string, Stripe.Subscription>();
  readonly invoices = new Map<string, Stripe.Invoice>();
  readonly invoiceItems = new Map<string, Stripe.InvoiceItem>();
  readonly events = new Map<string, Stripe.Event>();
  readonly checkoutSessions = new Map<string, Stripe.Checkout.Session>();
  /** What a Checkout Session keeps besides its API object: line items, `subscription_data`. */
  readonly checkoutExtras = new Map<string, CheckoutExtras>();
  readonly portalSessions = new Map<string, Stripe.BillingPortal.Session>();
  readonly retries = new Map<string, RetryState>();
  /** By subscription id: the change its `pending_update` describes, applied when its invoice is paid. */
  readonly pendingUpdates = new Map<string, PendingUpdateState>();
  /** Billing Meters by id, and the meter events they aggregate (by identifier, oldest first). */
  readonly meters = new Map<string, Stripe.Billing.Meter>();
  readonly meterEvents = new Map<string, Stripe.Billing.MeterEvent>();
  /** Subscriptions already told `customer.subscription.trial_will_end` for their current trial end. */
  readonly trialWarnings = new Map<string, number>();

  /** While `runDue` processes something due at time t, objects are stamped with t, not the clock. */
  #at: number | null = null;

  constructor(readonly clock: SandboxClock) {}

  /** Unix seconds, the unit of every Stripe timestamp. */
  now(): number {
    return this.#at ?? Math.floor(this.clock.now().getTime() / 1000);
  }

  clockSeconds(): number {
    return Math.floor(this.clock.now().getTime() / 1000);
  }

  /** Run a synchronous step with "now" pinned to `time`. */
  at<T>(time: number, fn: () => T): T {
    this.#at = time;
    try {
      return fn();
    } finally {
      this.#at = null;
    }
  }

  customer(id: string, param = 'customer'): Stripe.Customer {
    const customer = this.customers.get(id);
    if (!customer) throw StripeSandboxError.noSuch('customer', id, param);
    return customer;
  }

  subscription(id: string, param = 'subscription'): Stripe.Subscription {
    const sub = this.subscriptions.get(id);
    if (!sub) throw StripeSandboxError.noSuch('subscription', id, param);
    return sub;
  }

  paymentMethod(id: string, param = 'payment_method'): Stripe.PaymentMethod {
    const pm = this.paymentMethods.get(id);
    if (!pm) throw StripeSandboxError.noSuch('PaymentMethod', id, param);
    return pm;
  }

  paymentIntent(id: string, param = 'intent'): Stripe.PaymentIntent {
    const pi = this.paymentIntents.get(id);
    if (!pi) throw StripeSandboxError.noSuch('payment_intent', id, param);
    return pi;
  }

  setupIntent(id: string, param = 'intent'): Stripe.SetupIntent {
    const si = this.setupIntents.get(id);
    if (!si) throw StripeSandboxError.noSuch('setup_intent', id, param);
    return si;
  }

  meter(id: string, param = 'id'): Stripe.Billing.Meter {
    const meter = this.meters.get(id);
    if (!meter) throw StripeSandboxError.noSuch('billing.meter', id, param);
    return meter;
  }

  checkoutSession(id: string, param = 'session'): Stripe.Checkout.Session {
    const session = this.checkoutSessions.get(id);
    if (!session) throw StripeSandboxError.noSuch('checkout.session', id, param);
    return session;
  }

  invoice(id: string, param = 'invoice'): Stripe.Invoice {
    const invoice = this.invoices.get(id);
    if (!invoice) throw StripeSandboxError.noSuch('invoice', id, param);
    return invoice;
  }

  /** A price or plan id, resolved to both objects (they share ids in the sandbox). */
  recurring(id: string, param: string): { plan: Stripe.Plan; price: Stripe.Price } {
    const plan = this.plans.get(id);
    const price = this.prices.get(id);
    if (!plan || !price)
      throw StripeSandboxError.noSuch(param.includes('plan') ? 'plan' : 'price', id, param);
    return { plan, price };
  }

  coupon(id: string, param = 'coupon'): Stripe.Coupon {
    const coupon = this.coupons.get(id);
    if (!coupon) throw StripeSandboxError.noSuch('coupon', id, param);
    return coupon;
  }

  taxRate(id: string, param = 'default_tax_rates'): Stripe.TaxRate {
    const rate = this.taxRates.get(id);
    if (!rate) throw StripeSandboxError.noSuch('tax rate', id, param);
    return rate;
  }

  /** Any stored object by id, for `expand[]`. */
  find(id: string): unknown {
    for (const map of [
      this.customers,
      this.cards,
      this.charges,
      this.paymentMethods,
      this.paymentIntents,
      this.setupIntents,
      this.subscriptions,
      this.invoices,
      this.invoiceItems,
      this.prices,
      this.plans,
      this.products,
      this.coupons,
      this.taxRates,
      this.discounts,
      this.events,
      this.meters,
      this.checkoutSessions,
    ] as Map<string, unknown>[]) {
      const found = map.get(id);
      if (found) return found;
    }
    return undefined;
  }

  /** A JSON snapshot of everything, for `GET /_sandbox/state` and for debugging tests. */
  snapshot(): Record<string, unknown[]> {
    return {
      customers: [...this.customers.values()],
      cards: [...this.cards.values()],
      products: [...this.products.values()],
      plans: [...this.plans.values()],
      prices: [...this.prices.values()],
      coupons: [...this.coupons.values()],
      tax_rates: [...this.taxRates.values()],
      charges: [...this.charges.values()],
      payment_methods: [...this.paymentMethods.values()],
      setup_intents: [...this.setupIntents.values()],
      payment_intents: [...this.paymentIntents.values()],
      subscriptions: [...this.subscriptions.values()],
      invoices: [...this.invoices.values()],
      invoice_items: [...this.invoiceItems.values()],
      meters: [...this.meters.values()],
      meter_events: [...this.meterEvents.values()],
      events: [...this.events.values()],
      checkout_sessions: [...this.checkoutSessions.values()],
      billing_portal_sessions: [...this.portalSessions.values()],
    };
  }
}

/** A deep copy as the wire would give it: events and responses must not alias live state. */
export function snapshot<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}
