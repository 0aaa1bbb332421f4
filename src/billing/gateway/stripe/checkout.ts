import type Stripe from 'stripe';
import type {
  CheckoutSessionInput,
  GatewayCheckoutSession,
  GatewaySubscription,
} from '../payment-gateway.js';
import { isMissing, stripeCall } from './errors.js';
import { mapSubscription } from './map.js';
import type { StripeTaxRates } from './tax-rates.js';

/** What a session is read with: the subscription or payment it made, in one call. */
const EXPAND = ['subscription', 'payment_intent'];

/**
 * Stripe Checkout (https://docs.stripe.com/api/checkout/sessions) and the customer portal
 * (https://docs.stripe.com/api/customer_portal/sessions), for the Stripe gateway.
 */
export class StripeCheckout {
  constructor(
    private readonly stripe: Stripe,
    private readonly taxRates: StripeTaxRates,
  ) {}

  async create(input: CheckoutSessionInput): Promise<GatewayCheckoutSession> {
    const params: Stripe.Checkout.SessionCreateParams = {
      mode: input.mode,
      customer: input.customerId,
      client_reference_id: input.clientReferenceId,
      success_url: input.successUrl,
      line_items: input.items.map((item) =>
        'price' in item
          ? { price: item.price, quantity: item.quantity }
          : {
              price_data: {
                currency: item.currency,
                unit_amount: item.amount,
                product_data: { name: item.name },
              },
              quantity: item.quantity,
            },
      ),
      metadata: input.metadata,
      expand: EXPAND,
    };
    if (input.cancelUrl) params.cancel_url = input.cancelUrl;
    const sub = input.subscription;
    if (sub) {
      params.subscription_data = { metadata: { ...input.metadata, name: sub.name } };
      if (sub.trialDays) params.subscription_data.trial_period_days = sub.trialDays;
      if (sub.taxPercentage > 0)
        params.subscription_data.default_tax_rates = [await this.taxRates.idFor(sub.taxPercentage)];
      if (sub.coupon) params.discounts = [{ coupon: sub.coupon }];
    }
    const session = await stripeCall(() =>
      this.stripe.checkout.sessions.create(params, { idempotencyKey: input.idempotencyKey }),
    );
    return mapCheckoutSession(session);
  }

  async find(id: string): Promise<GatewayCheckoutSession | null> {
    try {
      return mapCheckoutSession(
        await stripeCall(() => this.stripe.checkout.sessions.retrieve(id, { expand: EXPAND })),
      );
    } catch (err) {
      if (isMissing(err)) return null;
      throw err;
    }
  }

  async portal(input: { customerId: string; returnUrl: string }): Promise<{ url: string }> {
    const session = await stripeCall(() =>
      this.stripe.billingPortal.sessions.create({ customer: input.customerId, return_url: input.returnUrl }),
    );
    return { url: session.url };
  }
}

export function mapCheckoutSession(session: Stripe.Checkout.Session): GatewayCheckoutSession {
  const sub = session.subscription;
  const subscription: GatewaySubscription | null =
    sub && typeof sub === 'object' ? mapSubscription(sub) : null;
  const pi = session.payment_intent;
  const pm =
    sub && typeof sub === 'object'
      ? sub.default_payment_method
      : pi && typeof pi === 'object'
        ? pi.payment_method
        : null;
  return {
    id: session.id,
    url: session.url,
    mode: session.mode as GatewayCheckoutSession['mode'],
    status: (session.status ?? 'open') as GatewayCheckoutSession['status'],
    paymentStatus: session.payment_status,
    customerId: typeof session.customer === 'string' ? session.customer : (session.customer?.id ?? null),
    clientReferenceId: session.client_reference_id,
    subscription,
    paymentMethodId: typeof pm === 'string' ? pm : (pm?.id ?? null),
    paymentId: typeof pi === 'string' ? pi : (pi?.id ?? null),
    amountTotal: session.amount_total,
    currency: session.currency,
  };
}
