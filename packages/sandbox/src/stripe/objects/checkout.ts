import type Stripe from 'stripe';
import { randomChars } from '../../shared/ids.js';
import { newId } from './ids.js';

/** What a session keeps that its API object does not show (`subscription_data`, `payment_intent_data`). */
export interface CheckoutExtras {
  lineItems: Stripe.LineItem[];
  subscriptionMetadata: Record<string, string>;
  trialPeriodDays: number | null;
  /** `subscription_data[default_tax_rates]` and `discounts[n][coupon]`, checked, for the subscription. */
  taxRates: string[];
  coupons: string[];
  paymentMetadata: Record<string, string>;
}

/** Stripe keeps a Checkout Session open for 24 hours unless `expires_at` says otherwise. */
export const CHECKOUT_SESSION_LIFETIME = 24 * 3600;

export interface CheckoutSessionFields {
  mode: Stripe.Checkout.Session.Mode;
  customer: string | null;
  customerEmail: string | null;
  clientReferenceId: string | null;
  successUrl: string;
  cancelUrl: string | null;
  currency: string | null;
  amountSubtotal: number | null;
  metadata: Record<string, string>;
  url: (id: string) => string;
}

/** https://docs.stripe.com/api/checkout/sessions/object — a hosted session (`ui_mode: hosted`). */
export function makeCheckoutSession(created: number, fields: CheckoutSessionFields): Stripe.Checkout.Session {
  const id = `cs_test_${randomChars(58)}`;
  const session = {
    id,
    object: 'checkout.session',
    adaptive_pricing: null,
    after_expiration: null,
    allow_promotion_codes: null,
    amount_subtotal: fields.amountSubtotal,
    amount_total: fields.amountSubtotal,
    automatic_tax: { enabled: false, liability: null, provider: null, status: null },
    billing_address_collection: null,
    cancel_url: fields.cancelUrl,
    client_reference_id: fields.clientReferenceId,
    client_secret: null,
    collected_information: null,
    consent: null,
    consent_collection: null,
    created,
    currency: fields.currency,
    currency_conversion: null,
    custom_fields: [],
    custom_text: {
      after_submit: null,
      shipping_address: null,
      submit: null,
      terms_of_service_acceptance: null,
    },
    customer: fields.customer,
    customer_creation: fields.customer ? null : fields.mode === 'payment' ? 'if_required' : 'always',
    customer_details: null,
    customer_email: fields.customerEmail,
    discounts: [],
    expires_at: created + CHECKOUT_SESSION_LIFETIME,
    invoice: null,
    invoice_creation: null,
    livemode: false,
    locale: null,
    metadata: fields.metadata,
    mode: fields.mode,
    payment_intent: null,
    payment_link: null,
    payment_method_collection: fields.mode === 'subscription' ? 'always' : null,
    payment_method_configuration_details: null,
    payment_method_options: { card: { request_three_d_secure: 'automatic' } },
    payment_method_types: ['card'],
    payment_status: fields.mode === 'setup' ? 'no_payment_required' : 'unpaid',
    phone_number_collection: { enabled: false },
    recovered_from: null,
    saved_payment_method_options: null,
    setup_intent: null,
    shipping_address_collection: null,
    shipping_cost: null,
    shipping_options: [],
    status: 'open',
    submit_type: null,
    subscription: null,
    success_url: fields.successUrl,
    total_details: { amount_discount: 0, amount_shipping: 0, amount_tax: 0 },
    ui_mode: 'hosted',
    url: fields.url(id),
    wallet_options: null,
  };
  return session as unknown as Stripe.Checkout.Session;
}

/** A line of a Checkout Session (https://docs.stripe.com/api/checkout/sessions/line_items). */
export function makeLineItem(price: Stripe.Price, quantity: number, description: string): Stripe.LineItem {
  const amount = (price.unit_amount ?? 0) * quantity;
  return {
    id: newId('li'),
    object: 'item',
    amount_discount: 0,
    amount_subtotal: amount,
    amount_tax: 0,
    amount_total: amount,
    currency: price.currency,
    description,
    price,
    quantity,
  } as unknown as Stripe.LineItem;
}

/** https://docs.stripe.com/api/customer_portal/sessions/object */
export function makePortalSession(
  created: number,
  fields: { customer: string; returnUrl: string | null; url: (id: string) => string },
): Stripe.BillingPortal.Session {
  const id = newId('bps');
  return {
    id,
    object: 'billing_portal.session',
    configuration: 'bpc_sandbox_default',
    created,
    customer: fields.customer,
    customer_account: null,
    flow: null,
    livemode: false,
    locale: null,
    on_behalf_of: null,
    return_url: fields.returnUrl,
    url: fields.url(id),
  } as unknown as Stripe.BillingPortal.Session;
}
