import type Stripe from 'stripe';
import { IncompletePayment } from '../../errors.js';
import type {
  ChargeInput,
  ChargeResponse,
  GatewayPayment,
  GatewaySetupIntent,
  PaymentStatus,
} from '../payment-gateway.js';
import { isMissing, stripeCall } from './errors.js';

const idOf = (value: string | { id: string } | null | undefined): string | null =>
  typeof value === 'string' ? value : (value?.id ?? null);

/** Whether a token is a PaymentMethod (`pm_…`) rather than a legacy card token or source. */
export const isPaymentMethod = (token: string | null | undefined): token is string =>
  typeof token === 'string' && token.startsWith('pm_');

export function mapPayment(
  pi: Stripe.PaymentIntent,
  link: { invoiceId: string | null; subscriptionId: string | null } = {
    invoiceId: null,
    subscriptionId: null,
  },
): GatewayPayment {
  return {
    id: pi.id,
    clientSecret: pi.client_secret,
    status: pi.status as PaymentStatus,
    amount: pi.amount,
    currency: pi.currency,
    customerId: idOf(pi.customer),
    actionUrl: pi.next_action?.redirect_to_url?.url ?? null,
    failureMessage: pi.last_payment_error?.message ?? null,
    ...link,
  };
}

export function mapSetupIntent(si: Stripe.SetupIntent, apiBase: string | null): GatewaySetupIntent {
  const secret = si.client_secret ?? '';
  return {
    id: si.id,
    clientSecret: secret,
    status: si.status,
    customerId: idOf(si.customer),
    paymentMethod: si.status === 'succeeded' ? idOf(si.payment_method) : null,
    cardPageUrl: apiBase
      ? `${apiBase}/_sandbox/setup/${si.id}?client_secret=${encodeURIComponent(secret)}`
      : null,
  };
}

/**
 * PaymentIntents and how they link to invoices: the current API has no `invoice.payment_intent`,
 * so the link is the invoice's payments (https://docs.stripe.com/api/invoice-payment).
 */
export class StripePayments {
  constructor(
    private readonly stripe: Stripe,
    /** A sandbox's API base: its card page stands in for Stripe.js (null with real Stripe). */
    private readonly sandboxBase: string | null,
  ) {}

  /**
   * A PaymentIntent confirmed at once, the customer present (Cashier's `charge`): a card that asks
   * for 3-D Secure throws `IncompletePayment`; the answer is the PaymentIntent.
   */
  async charge(input: ChargeInput): Promise<ChargeResponse> {
    const { payment_method: given, ...rest } = input.options as { payment_method?: string } & Record<
      string,
      unknown
    >;
    const params = {
      ...rest,
      amount: input.amount,
      confirm: true,
      allowed_payment_method_types: ['card'],
    } as unknown as Stripe.PaymentIntentCreateParams;
    if (input.customerId) params.customer = input.customerId;
    params.payment_method = given ?? (await this.defaultPaymentMethod(input.customerId ?? ''));
    const pi = await stripeCall(() =>
      this.stripe.paymentIntents.create(params, { idempotencyKey: input.idempotencyKey }),
    );
    if (pi.status === 'requires_action') throw new IncompletePayment(mapPayment(pi));
    return pi as unknown as ChargeResponse;
  }

  async createSetupIntent(input: {
    customerId: string | null;
    idempotencyKey: string;
  }): Promise<GatewaySetupIntent> {
    const params: Stripe.SetupIntentCreateParams = {
      usage: 'off_session',
      allowed_payment_method_types: ['card'],
    };
    if (input.customerId) params.customer = input.customerId;
    const si = await stripeCall(() =>
      this.stripe.setupIntents.create(params, { idempotencyKey: input.idempotencyKey }),
    );
    return mapSetupIntent(si, this.sandboxBase);
  }

  async findSetupIntent(id: string): Promise<GatewaySetupIntent | null> {
    try {
      return mapSetupIntent(await stripeCall(() => this.stripe.setupIntents.retrieve(id)), this.sandboxBase);
    } catch (err) {
      if (isMissing(err)) return null;
      throw err;
    }
  }

  /** Whether the customer's invoices are paid with a PaymentMethod (else a legacy card source). */
  async paysWithPaymentMethod(customerId: string): Promise<boolean> {
    return (await this.defaultPaymentMethod(customerId)) !== undefined;
  }

  private async defaultPaymentMethod(customerId: string): Promise<string | undefined> {
    if (!customerId) return undefined;
    const customer = await stripeCall(() => this.stripe.customers.retrieve(customerId));
    if ('deleted' in customer && customer.deleted) return undefined;
    const pm = (customer as Stripe.Customer).invoice_settings?.default_payment_method;
    return (typeof pm === 'string' ? pm : pm?.id) ?? undefined;
  }

  async find(id: string): Promise<GatewayPayment | null> {
    let pi: Stripe.PaymentIntent;
    try {
      pi = await stripeCall(() => this.stripe.paymentIntents.retrieve(id));
    } catch (err) {
      if (isMissing(err)) return null;
      throw err;
    }
    const links = await stripeCall(() =>
      this.stripe.invoicePayments.list({
        payment: { type: 'payment_intent', payment_intent: pi.id },
        limit: 1,
      }),
    );
    const invoiceId = idOf(links.data[0]?.invoice);
    return mapPayment(pi, {
      invoiceId,
      subscriptionId: invoiceId ? await this.subscriptionOf(invoiceId) : null,
    });
  }

  /** The PaymentIntent collecting an invoice, if it is paid through one. */
  async ofInvoice(invoiceId: string, subscriptionId: string | null = null): Promise<GatewayPayment | null> {
    const links = await stripeCall(() => this.stripe.invoicePayments.list({ invoice: invoiceId, limit: 10 }));
    const link = links.data.find((l) => l.payment.type === 'payment_intent') ?? null;
    const piId = idOf(link?.payment.payment_intent);
    if (!piId) return null;
    const pi = await stripeCall(() => this.stripe.paymentIntents.retrieve(piId));
    return mapPayment(pi, { invoiceId, subscriptionId });
  }

  /** The payment the subscription's latest invoice waits on (Cashier's `latestPayment()`). */
  async latest(subscription: Stripe.Subscription): Promise<GatewayPayment | null> {
    const invoiceId = idOf(subscription.latest_invoice);
    if (!invoiceId) return null;
    return this.ofInvoice(invoiceId, subscription.id);
  }

  private async subscriptionOf(invoiceId: string): Promise<string | null> {
    const invoice = await stripeCall(() => this.stripe.invoices.retrieve(invoiceId));
    return idOf(invoice.parent?.subscription_details?.subscription);
  }
}
