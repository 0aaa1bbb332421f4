import type Stripe from 'stripe';
import { BillingError } from '../../errors.js';
import type {
  ChargeInput,
  ChargeResponse,
  CreateCustomerInput,
  CreateSubscriptionInput,
  GatewayCustomer,
  GatewayInvoice,
  GatewaySubscription,
  InvoiceForInput,
  PaymentGateway,
  SubscriptionChanges,
  WebhookEvent,
  WebhookRequest,
} from '../payment-gateway.js';
import { stripeCapabilities } from './capabilities.js';
import { createStripeClient, type StripeClientOptions } from './client.js';
import { isMissing, stripeCall } from './errors.js';
import { mapCustomer, mapInvoice, mapSubscription, subscriptionOfEvent } from './map.js';
import { subscriptionSyncOf } from './webhook-sync.js';

export interface StripePaymentGatewayOptions extends StripeClientOptions {
  /** The endpoint's signing secret (`whsec_…`). */
  webhookSecret: string;
  /** Called when the gateway closes (the embedded sandbox stops). */
  onClose?: () => Promise<void>;
}

const epoch = (date: Date): number => Math.floor(date.getTime() / 1000);

/**
 * The Stripe edition over the official SDK and the current Stripe API: subscriptions carry
 * `items`, coupons go in `discounts`, tax is a `default_tax_rates` entry, and the upcoming
 * invoice is `invoices.createPreview`.
 */
export class StripePaymentGateway implements PaymentGateway {
  readonly capabilities = stripeCapabilities;
  readonly stripe: Stripe;
  readonly #options: StripePaymentGatewayOptions;
  readonly #taxRates = new Map<number, Promise<string>>();

  constructor(options: StripePaymentGatewayOptions) {
    this.#options = options;
    this.stripe = createStripeClient(options);
  }

  async createCustomer(input: CreateCustomerInput): Promise<GatewayCustomer> {
    const params: Stripe.CustomerCreateParams = {
      email: input.email,
      name: input.name,
      ...(input.details as Stripe.CustomerCreateParams),
      expand: ['default_source'],
    };
    if (input.token) params.source = input.token;
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
    const customer = await stripeCall(() =>
      this.stripe.customers.update(
        customerId,
        { source: token, expand: ['default_source'] },
        { idempotencyKey },
      ),
    );
    return mapCustomer(customer);
  }

  async createSubscription(input: CreateSubscriptionInput): Promise<GatewaySubscription> {
    const params: Stripe.SubscriptionCreateParams = {
      customer: input.customerId,
      items: [{ price: input.plan, quantity: input.quantity }],
      // Stripe creates nothing when the first payment fails, so no half-made subscription remains.
      payment_behavior: 'error_if_incomplete',
    };
    if (input.trialEndsAt) params.trial_end = epoch(input.trialEndsAt);
    if (input.coupon) params.discounts = [{ coupon: input.coupon }];
    if (input.taxPercentage > 0) params.default_tax_rates = [await this.taxRate(input.taxPercentage)];
    const sub = await stripeCall(() =>
      this.stripe.subscriptions.create(params, { idempotencyKey: input.idempotencyKey }),
    );
    return mapSubscription(sub);
  }

  async updateSubscription(id: string, changes: SubscriptionChanges): Promise<GatewaySubscription> {
    const current = await stripeCall(() => this.stripe.subscriptions.retrieve(id));
    const item = current.items.data[0];
    const params: Stripe.SubscriptionUpdateParams = {
      // Cashier invoices a swap's proration at once rather than on the next renewal.
      proration_behavior: changes.prorate === false ? 'none' : 'always_invoice',
    };
    if (changes.plan !== undefined || changes.quantity !== undefined) {
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
      params.default_tax_rates = changes.taxPercentage > 0 ? [await this.taxRate(changes.taxPercentage)] : '';
    }
    const sub = await stripeCall(() =>
      this.stripe.subscriptions.update(id, params, { idempotencyKey: changes.idempotencyKey }),
    );
    return mapSubscription(sub);
  }

  async cancelSubscription(id: string, options: { atPeriodEnd: boolean }): Promise<GatewaySubscription> {
    const sub = await stripeCall(() =>
      options.atPeriodEnd
        ? this.stripe.subscriptions.update(id, { cancel_at_period_end: true })
        : this.stripe.subscriptions.cancel(id),
    );
    return mapSubscription(sub);
  }

  async resumeSubscription(id: string): Promise<GatewaySubscription> {
    // Clearing cancel_at_period_end neither bills nor moves the cycle: billing continues as before.
    const sub = await stripeCall(() => this.stripe.subscriptions.update(id, { cancel_at_period_end: false }));
    return mapSubscription(sub);
  }

  async findSubscription(id: string): Promise<GatewaySubscription | null> {
    try {
      return mapSubscription(await stripeCall(() => this.stripe.subscriptions.retrieve(id)));
    } catch (err) {
      if (isMissing(err)) return null;
      throw err;
    }
  }

  async charge(input: ChargeInput): Promise<ChargeResponse> {
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

  async invoiceFor(input: InvoiceForInput): Promise<GatewayInvoice> {
    const key = input.idempotencyKey;
    const { currency, ...rest } = input.options as { currency: string } & Record<string, unknown>;
    await stripeCall(() =>
      this.stripe.invoiceItems.create(
        {
          ...(rest as object),
          customer: input.customerId,
          amount: input.amount,
          currency,
          description: input.description,
        },
        { idempotencyKey: `${key}:item` },
      ),
    );
    const draft = await stripeCall(() =>
      this.stripe.invoices.create(
        { customer: input.customerId, pending_invoice_items_behavior: 'include', auto_advance: true },
        { idempotencyKey: `${key}:invoice` },
      ),
    );
    const id = draft.id ?? '';
    await stripeCall(() => this.stripe.invoices.finalizeInvoice(id));
    // A failed payment leaves the invoice open; Stripe retries it unless it is voided.
    const paid = await stripeCall(() => this.stripe.invoices.pay(id), { invoiceId: id });
    return mapInvoice(paid);
  }

  async voidInvoice(id: string): Promise<GatewayInvoice> {
    return mapInvoice(await stripeCall(() => this.stripe.invoices.voidInvoice(id)));
  }

  async invoices(customerId: string, options: { includePending: boolean }): Promise<GatewayInvoice[]> {
    const list = await stripeCall(() =>
      this.stripe.invoices.list({ customer: customerId, limit: 100, expand: ['data.discounts'] }),
    );
    return list.data
      .filter((invoice) => options.includePending || invoice.status === 'paid')
      .map(mapInvoice)
      .sort((a, b) => b.date.getTime() - a.date.getTime());
  }

  async findInvoice(customerId: string, id: string): Promise<GatewayInvoice | null> {
    try {
      const invoice = await stripeCall(() => this.stripe.invoices.retrieve(id, { expand: ['discounts'] }));
      const mapped = mapInvoice(invoice);
      return mapped.customerId === customerId ? mapped : null;
    } catch (err) {
      if (isMissing(err)) return null;
      throw err;
    }
  }

  async upcomingInvoice(customerId: string, subscriptionId?: string): Promise<GatewayInvoice | null> {
    try {
      const params: Stripe.InvoiceCreatePreviewParams = { customer: customerId, expand: ['discounts'] };
      if (subscriptionId) params.subscription = subscriptionId;
      const preview = await stripeCall(() => this.stripe.invoices.createPreview(params));
      return mapInvoice(preview);
    } catch (err) {
      // `invoice_upcoming_none`: nothing to bill (https://docs.stripe.com/error-codes/invoice-upcoming-none).
      if (err instanceof BillingError && err.providerCode === 'invoice_upcoming_none') return null;
      throw err;
    }
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
    return {
      id: event.id,
      name: event.type,
      payload: event,
      subscriptionId: subscriptionOfEvent(event),
      sync: subscriptionSyncOf(event),
    };
  }

  async close(): Promise<void> {
    await this.#options.onClose?.();
  }

  /** One exclusive tax rate per percentage, found or created once per process. */
  private taxRate(percentage: number): Promise<string> {
    let id = this.#taxRates.get(percentage);
    if (!id) {
      id = this.findOrCreateTaxRate(percentage);
      id.catch(() => this.#taxRates.delete(percentage));
      this.#taxRates.set(percentage, id);
    }
    return id;
  }

  private async findOrCreateTaxRate(percentage: number): Promise<string> {
    const existing = await stripeCall(() =>
      this.stripe.taxRates.list({ active: true, inclusive: false, limit: 100 }),
    )
      .then((list) =>
        list.data.find((rate) => rate.percentage === percentage && rate.metadata?.tollgate === '1'),
      )
      .catch(() => undefined);
    if (existing) return existing.id;
    const created = await stripeCall(() =>
      this.stripe.taxRates.create({
        display_name: 'Tax',
        percentage,
        inclusive: false,
        metadata: { tollgate: '1' },
      }),
    );
    return created.id;
  }
}
