import type Stripe from 'stripe';
import { BillingError } from '../../errors.js';
import type {
  ChargeInput,
  ChargeResponse,
  CheckoutSessionInput,
  CreateCustomerInput,
  CreateSubscriptionInput,
  GatewayCheckoutSession,
  GatewayCustomer,
  GatewayInvoice,
  GatewayPayment,
  GatewaySetupIntent,
  GatewaySubscription,
  InvoiceForInput,
  PaymentGateway,
  SubscriptionChanges,
  UsageReport,
  WebhookEvent,
  WebhookRequest,
} from '../payment-gateway.js';
import { stripeCapabilities } from './capabilities.js';
import { StripeCheckout } from './checkout.js';
import { createStripeClient, type StripeClientOptions } from './client.js';
import { isMissing, stripeCall } from './errors.js';
import { StripeInvoices } from './invoices.js';
import { mapCustomer, mapSubscription, planItem, subscriptionOfEvent } from './map.js';
import { isPaymentMethod, StripePayments } from './payments.js';
import { StripeTaxRates } from './tax-rates.js';
import { StripeUsage } from './usage.js';
import { invoiceSyncOf, subscriptionSyncOf } from './webhook-sync.js';

export interface StripePaymentGatewayOptions extends StripeClientOptions {
  /** The endpoint's signing secret (`whsec_…`). */
  webhookSecret: string;
  /** Called when the gateway closes (the embedded sandbox stops). */
  onClose?: () => Promise<void>;
}

const epoch = (date: Date): number => Math.floor(date.getTime() / 1000);
/** The default card as the customer's answer carries it, expanded. */
const CARD_FIELDS = ['default_source', 'invoice_settings.default_payment_method'];

/**
 * The Stripe edition over the official SDK and the current Stripe API: subscriptions carry
 * `items`, coupons go in `discounts`, tax is a `default_tax_rates` entry, and the upcoming
 * invoice is `invoices.createPreview`.
 */
export class StripePaymentGateway implements PaymentGateway {
  readonly capabilities = stripeCapabilities;
  readonly stripe: Stripe;
  readonly #options: StripePaymentGatewayOptions;
  readonly #taxRates: StripeTaxRates;
  readonly #payments: StripePayments;
  readonly #invoices: StripeInvoices;
  readonly #usage: StripeUsage;
  readonly #checkout: StripeCheckout;

  constructor(options: StripePaymentGatewayOptions) {
    this.#options = options;
    this.stripe = createStripeClient(options);
    this.#payments = new StripePayments(this.stripe, options.apiBase ?? null);
    this.#taxRates = new StripeTaxRates(this.stripe);
    this.#invoices = new StripeInvoices(this.stripe, this.#taxRates);
    this.#usage = new StripeUsage(this.stripe);
    this.#checkout = new StripeCheckout(this.stripe, this.#taxRates);
  }

  async createCustomer(input: CreateCustomerInput): Promise<GatewayCustomer> {
    const params: Stripe.CustomerCreateParams = {
      email: input.email,
      name: input.name,
      ...(input.details as Stripe.CustomerCreateParams),
      expand: CARD_FIELDS,
    };
    if (isPaymentMethod(input.token)) {
      params.payment_method = input.token;
      params.invoice_settings = { default_payment_method: input.token };
    } else if (input.token) params.source = input.token;
    const customer = await stripeCall(() =>
      this.stripe.customers.create(params, { idempotencyKey: input.idempotencyKey }),
    );
    return mapCustomer(customer);
  }

  async updatePaymentMethod(
    customerId: string,
    token: string,
    idempotencyKey: string,
  ): Promise<GatewayCustomer> {
    if (isPaymentMethod(token)) {
      // Attach (a SetupIntent with the customer attached it already), then make it the invoice default.
      const pm = await stripeCall(() =>
        this.stripe.paymentMethods.attach(
          token,
          { customer: customerId },
          { idempotencyKey: `${idempotencyKey}-attach` },
        ),
      );
      const customer = await stripeCall(() =>
        this.stripe.customers.update(
          customerId,
          { invoice_settings: { default_payment_method: pm.id }, expand: CARD_FIELDS },
          { idempotencyKey },
        ),
      );
      return mapCustomer(customer);
    }
    // A legacy card: the new default source, and no PaymentMethod default in front of it.
    const customer = await stripeCall(() =>
      this.stripe.customers.update(
        customerId,
        { source: token, invoice_settings: { default_payment_method: '' }, expand: CARD_FIELDS },
        { idempotencyKey },
      ),
    );
    return mapCustomer(customer);
  }

  async createSubscription(input: CreateSubscriptionInput): Promise<GatewaySubscription> {
    const params: Stripe.SubscriptionCreateParams = {
      customer: input.customerId,
      items: [{ price: input.plan, quantity: input.quantity }],
      // A legacy card: Stripe creates nothing when the first payment fails. A PaymentMethod may need
      // 3-D Secure, so the subscription is made `incomplete` and waits for the customer (Cashier's way).
      payment_behavior: (await this.#payments.paysWithPaymentMethod(input.customerId))
        ? 'allow_incomplete'
        : 'error_if_incomplete',
    };
    if (input.name) params.metadata = { name: input.name };
    if (input.trialEndsAt) params.trial_end = epoch(input.trialEndsAt);
    if (input.coupon) params.discounts = [{ coupon: input.coupon }];
    if (input.taxPercentage > 0) params.default_tax_rates = [await this.#taxRates.idFor(input.taxPercentage)];
    const sub = await stripeCall(() =>
      this.stripe.subscriptions.create(params, { idempotencyKey: input.idempotencyKey }),
    );
    if (sub.status !== 'incomplete') return mapSubscription(sub);
    const payment = await this.#payments.latest(sub);
    if (payment?.status === 'requires_action') return { ...mapSubscription(sub), pendingPayment: payment };
    // Declined: end it at Stripe, so no half-made subscription remains (as `error_if_incomplete`).
    await stripeCall(() => this.stripe.subscriptions.cancel(sub.id));
    throw BillingError.cardDeclined(payment?.failureMessage ?? 'Your card was declined.', {
      providerCode: 'card_declined',
    });
  }

  async updateSubscription(id: string, changes: SubscriptionChanges): Promise<GatewaySubscription> {
    const current = await stripeCall(() => this.stripe.subscriptions.retrieve(id));
    const item = planItem(current);
    const params: Stripe.SubscriptionUpdateParams = {
      // Cashier invoices a swap's proration at once rather than on the next renewal.
      proration_behavior: changes.prorate === false ? 'none' : 'always_invoice',
    };
    if (changes.plan !== undefined || changes.quantity !== undefined) {
      // A change is applied only once its invoice is paid (Stripe's pending updates): a declined
      // card leaves the subscription on what was paid for, never on the upgrade unpaid.
      if (changes.taxPercentage === undefined) params.payment_behavior = 'pending_if_incomplete';
      params.items = [
        {
          id: item?.id,
          ...(changes.plan !== undefined ? { price: changes.plan } : {}),
          ...(changes.quantity !== undefined ? { quantity: changes.quantity } : {}),
        },
      ];
    }
    if (changes.trialEndsAt !== undefined) {
      if (changes.trialEndsAt) params.trial_end = epoch(changes.trialEndsAt);
      // Ending a trial that is running bills the new plan at once (the spec's skipTrial → swap).
      else if (current.status === 'trialing') params.trial_end = 'now';
    }
    if (changes.taxPercentage !== undefined) {
      params.default_tax_rates =
        changes.taxPercentage > 0 ? [await this.#taxRates.idFor(changes.taxPercentage)] : '';
    }
    const sub = await stripeCall(() =>
      this.stripe.subscriptions.update(id, params, { idempotencyKey: changes.idempotencyKey }),
    );
    return sub.pending_update ? this.pendingChange(sub) : this.withPendingPayment(sub);
  }

  /** A change whose invoice waits for 3-D Secure: the state, with the payment to confirm. */
  private async withPendingPayment(sub: Stripe.Subscription): Promise<GatewaySubscription> {
    if (sub.status !== 'past_due' && sub.status !== 'incomplete') return mapSubscription(sub);
    const payment = await this.#payments.latest(sub);
    return payment?.status === 'requires_action'
      ? { ...mapSubscription(sub), pendingPayment: payment }
      : mapSubscription(sub);
  }

  /**
   * A change Stripe holds as a pending update, its invoice unpaid. Waiting for 3-D Secure: the
   * subscription as it still is, with the payment that applies the change once confirmed.
   * Declined: the invoice is voided (which drops the pending update, so nothing collects it
   * later) and `card_declined` is thrown.
   */
  private async pendingChange(sub: Stripe.Subscription): Promise<GatewaySubscription> {
    const payment = await this.#payments.latest(sub);
    if (payment?.status === 'requires_action') return { ...mapSubscription(sub), pendingPayment: payment };
    const invoiceId = typeof sub.latest_invoice === 'string' ? sub.latest_invoice : sub.latest_invoice?.id;
    if (invoiceId) await stripeCall(() => this.stripe.invoices.voidInvoice(invoiceId));
    throw BillingError.cardDeclined(payment?.failureMessage ?? 'Your card was declined.', {
      providerCode: 'card_declined',
    });
  }

  async cancelSubscription(id: string, options: { atPeriodEnd: boolean }): Promise<GatewaySubscription> {
    const sub = await stripeCall(() =>
      options.atPeriodEnd
        ? this.stripe.subscriptions.update(id, { cancel_at_period_end: true })
        : this.stripe.subscriptions.cancel(id),
    );
    return mapSubscription(sub);
  }

  async abandonSubscription(id: string): Promise<GatewaySubscription | null> {
    const sub = await this.retrieveOrNull(id);
    if (sub?.status !== 'incomplete') return sub && mapSubscription(sub);
    // Cancelling alone leaves the first invoice open, and its PaymentIntent can still be confirmed.
    const invoiceId = typeof sub.latest_invoice === 'string' ? sub.latest_invoice : sub.latest_invoice?.id;
    if (invoiceId) {
      const voided = await stripeCall(() => this.stripe.invoices.voidInvoice(invoiceId)).catch(
        (err: unknown) => err,
      );
      if (voided instanceof Error) {
        // Paid a moment ago (the customer confirmed first): the subscription is live, kept as it is.
        const now = await this.retrieveOrNull(id);
        if (now && now.status !== 'incomplete') return mapSubscription(now);
        throw voided;
      }
    }
    return mapSubscription(await stripeCall(() => this.stripe.subscriptions.cancel(id)));
  }

  private async retrieveOrNull(id: string): Promise<Stripe.Subscription | null> {
    try {
      return await stripeCall(() => this.stripe.subscriptions.retrieve(id));
    } catch (err) {
      if (isMissing(err)) return null;
      throw err;
    }
  }

  async resumeSubscription(id: string): Promise<GatewaySubscription> {
    // Clearing cancel_at_period_end neither bills nor moves the cycle: billing continues as before.
    const sub = await stripeCall(() => this.stripe.subscriptions.update(id, { cancel_at_period_end: false }));
    return mapSubscription(sub);
  }

  async findSubscription(id: string): Promise<GatewaySubscription | null> {
    const sub = await this.retrieveOrNull(id);
    return sub && mapSubscription(sub);
  }

  async listSubscriptions(customerId: string): Promise<GatewaySubscription[]> {
    const found: GatewaySubscription[] = [];
    const list = this.stripe.subscriptions.list({ customer: customerId, status: 'all', limit: 100 });
    await stripeCall(() => list.autoPagingEach((sub) => void found.push(mapSubscription(sub))));
    return found;
  }

  async findCustomer(id: string): Promise<GatewayCustomer | null> {
    try {
      const customer = await stripeCall(() => this.stripe.customers.retrieve(id, { expand: CARD_FIELDS }));
      return customer.deleted ? null : mapCustomer(customer);
    } catch (err) {
      if (isMissing(err)) return null;
      throw err;
    }
  }

  async charge(input: ChargeInput): Promise<ChargeResponse> {
    const { payment_method: paymentMethod } = input.options as { payment_method?: string };
    const viaIntent =
      isPaymentMethod(paymentMethod) ||
      (!input.options.source &&
        input.customerId !== null &&
        (await this.#payments.paysWithPaymentMethod(input.customerId)));
    if (viaIntent) return this.#payments.charge(input);
    const params = { ...input.options, amount: input.amount } as Stripe.ChargeCreateParams;
    if (!params.source && !params.customer) {
      if (!input.customerId) throw BillingError.customerMissing();
      params.customer = input.customerId;
    }
    const charge = await stripeCall(() =>
      this.stripe.charges.create(params, { idempotencyKey: input.idempotencyKey }),
    );
    return charge as unknown as ChargeResponse;
  }

  invoiceFor(input: InvoiceForInput): Promise<GatewayInvoice> {
    return this.#invoices.invoiceFor(input);
  }

  voidInvoice(id: string): Promise<GatewayInvoice> {
    return this.#invoices.voidInvoice(id);
  }

  invoices(customerId: string, options: { includePending: boolean }): Promise<GatewayInvoice[]> {
    return this.#invoices.list(customerId, options);
  }

  findInvoice(customerId: string, id: string): Promise<GatewayInvoice | null> {
    return this.#invoices.find(customerId, id);
  }

  upcomingInvoice(customerId: string, subscriptionId?: string): Promise<GatewayInvoice | null> {
    return this.#invoices.upcoming(customerId, subscriptionId);
  }

  createSetupIntent(input: {
    customerId: string | null;
    idempotencyKey: string;
  }): Promise<GatewaySetupIntent> {
    return this.#payments.createSetupIntent(input);
  }

  findSetupIntent(id: string): Promise<GatewaySetupIntent | null> {
    return this.#payments.findSetupIntent(id);
  }

  findPayment(id: string): Promise<GatewayPayment | null> {
    return this.#payments.find(id);
  }

  async latestPayment(subscriptionId: string): Promise<GatewayPayment | null> {
    const sub = await stripeCall(() => this.stripe.subscriptions.retrieve(subscriptionId));
    return this.#payments.latest(sub);
  }

  reportUsage(report: UsageReport): Promise<void> {
    return this.#usage.report(report);
  }

  createCheckoutSession(input: CheckoutSessionInput): Promise<GatewayCheckoutSession> {
    return this.#checkout.create(input);
  }

  findCheckoutSession(id: string): Promise<GatewayCheckoutSession | null> {
    return this.#checkout.find(id);
  }

  createBillingPortalSession(input: { customerId: string; returnUrl: string }): Promise<{ url: string }> {
    return this.#checkout.portal(input);
  }

  /** https://docs.stripe.com/webhooks#verify-official-libraries */
  async parseWebhook(request: WebhookRequest): Promise<WebhookEvent> {
    const signature = request.headers.get('stripe-signature');
    if (!signature) throw BillingError.invalidWebhookSignature('no Stripe-Signature header');
    if (!this.#options.webhookSecret)
      throw BillingError.invalidWebhookSignature('no webhook secret configured');
    let event: Stripe.Event;
    try {
      event = this.stripe.webhooks.constructEvent(request.body, signature, this.#options.webhookSecret);
    } catch (err) {
      throw BillingError.invalidWebhookSignature(err instanceof Error ? err.message : String(err));
    }
    const subscriptionId = subscriptionOfEvent(event);
    return {
      id: event.id,
      name: event.type,
      createdAt: new Date(event.created * 1000),
      payload: event,
      subscriptionId,
      sync: subscriptionSyncOf(event) ?? invoiceSyncOf(event, subscriptionId),
      ...(event.type === 'checkout.session.completed'
        ? { checkoutSessionId: (event.data.object as Stripe.Checkout.Session).id }
        : {}),
    };
  }

  async close(): Promise<void> {
    await this.#options.onClose?.();
  }
}
