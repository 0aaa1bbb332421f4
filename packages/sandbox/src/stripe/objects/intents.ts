import type Stripe from 'stripe';
import { randomChars } from '../../shared/ids.js';
import { newId } from './ids.js';
import type { TestCard } from './test-cards.js';

/** A card PaymentMethod (https://docs.stripe.com/api/payment_methods/object). */
export function makePaymentMethod(created: number, spec: TestCard, expYear: number): Stripe.PaymentMethod {
  return {
    id: newId('pm'),
    object: 'payment_method',
    billing_details: { address: null, email: null, name: null, phone: null, tax_id: null },
    card: {
      brand: spec.pmBrand,
      checks: { address_line1_check: null, address_postal_code_check: null, cvc_check: 'pass' },
      country: spec.country,
      display_brand: spec.pmBrand,
      exp_month: 12,
      exp_year: expYear,
      fingerprint: randomChars(16),
      funding: spec.funding,
      generated_from: null,
      last4: spec.last4,
      networks: { available: [spec.pmBrand], preferred: null },
      regulated_status: 'unregulated',
      three_d_secure_usage: { supported: true },
      wallet: null,
    } as Stripe.PaymentMethod.Card,
    created,
    customer: null,
    customer_account: null,
    livemode: false,
    metadata: {},
    type: 'card',
  };
}

const secretOf = (id: string) => `${id}_secret_${randomChars(24)}`;

export interface SetupIntentFields {
  customer: string | null;
  usage: string;
  description: string | null;
  metadata: Record<string, string>;
}

/** https://docs.stripe.com/api/setup_intents/object */
export function makeSetupIntent(created: number, fields: SetupIntentFields): Stripe.SetupIntent {
  const id = newId('seti');
  return {
    id,
    object: 'setup_intent',
    allowed_payment_method_types: null,
    application: null,
    automatic_payment_methods: null,
    cancellation_reason: null,
    client_secret: secretOf(id),
    created,
    customer: fields.customer,
    description: fields.description,
    excluded_payment_method_types: null,
    last_setup_error: null,
    latest_attempt: null,
    livemode: false,
    mandate: null,
    metadata: fields.metadata,
    next_action: null,
    on_behalf_of: null,
    payment_method: null,
    payment_method_configuration_details: null,
    payment_method_options: null,
    payment_method_types: ['card'],
    single_use_mandate: null,
    status: 'requires_payment_method',
    usage: fields.usage,
  };
}

export interface PaymentIntentFields {
  amount: number;
  currency: string;
  customer: string | null;
  paymentMethod: string | null;
  description: string | null;
  metadata: Record<string, string>;
  receiptEmail: string | null;
}

/** https://docs.stripe.com/api/payment_intents/object */
export function makePaymentIntent(created: number, fields: PaymentIntentFields): Stripe.PaymentIntent {
  const id = newId('pi');
  return {
    id,
    object: 'payment_intent',
    allowed_payment_method_types: null,
    amount: fields.amount,
    amount_capturable: 0,
    amount_received: 0,
    application: null,
    application_fee_amount: null,
    automatic_payment_methods: null,
    canceled_at: null,
    cancellation_reason: null,
    capture_method: 'automatic',
    client_secret: secretOf(id),
    confirmation_method: 'automatic',
    created,
    currency: fields.currency,
    customer: fields.customer,
    customer_account: null,
    description: fields.description,
    excluded_payment_method_types: null,
    last_payment_error: null,
    latest_charge: null,
    livemode: false,
    managed_payments: null,
    metadata: fields.metadata,
    next_action: null,
    on_behalf_of: null,
    payment_method: fields.paymentMethod,
    payment_method_configuration_details: null,
    payment_method_options: null,
    payment_method_types: ['card'],
    payment_record: null,
    processing: null,
    receipt_email: fields.receiptEmail,
    review: null,
    setup_future_usage: null,
    shipping: null,
    source: null,
    statement_descriptor: null,
    statement_descriptor_suffix: null,
    status: fields.paymentMethod ? 'requires_confirmation' : 'requires_payment_method',
    transfer_group: null,
  };
}

/** The link between an invoice and a PaymentIntent paying it (https://docs.stripe.com/api/invoice-payment). */
export function makeInvoicePayment(
  created: number,
  invoice: Stripe.Invoice,
  intent: string,
): Stripe.InvoicePayment {
  return {
    id: newId('inpay'),
    object: 'invoice_payment',
    amount_paid: null,
    amount_requested: invoice.amount_remaining,
    created,
    currency: invoice.currency,
    invoice: invoice.id,
    is_default: true,
    livemode: false,
    payment: { type: 'payment_intent', payment_intent: intent },
    status: 'open',
    status_transitions: { canceled_at: null, paid_at: null },
  };
}
