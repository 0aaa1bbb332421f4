import type Stripe from 'stripe';
import { randomChars } from '../../shared/ids.js';
import { newId } from './ids.js';

/** The customer object with every field the SDK types as required (https://docs.stripe.com/api/customers/object). */
export function makeCustomer(created: number, fields: Partial<Stripe.Customer>): Stripe.Customer {
  return {
    id: newId('cus'),
    object: 'customer',
    address: null,
    balance: 0,
    created,
    currency: null,
    default_source: null,
    delinquent: false,
    description: null,
    discount: null,
    email: null,
    invoice_prefix: randomChars(8, 'ABCDEF0123456789'),
    invoice_settings: {
      custom_fields: null,
      default_payment_method: null,
      footer: null,
      rendering_options: null,
    },
    livemode: false,
    metadata: {},
    name: null,
    next_invoice_sequence: 1,
    phone: null,
    preferred_locales: [],
    shipping: null,
    tax_exempt: 'none',
    test_clock: null,
    ...fields,
  };
}

export interface CardDetails {
  brand: string;
  last4: string;
  funding: string;
  country: string;
}

export function makeCard(customer: string | null, details: CardDetails, expYear: number): Stripe.Card {
  return {
    id: newId('card'),
    object: 'card',
    address_city: null,
    address_country: null,
    address_line1: null,
    address_line1_check: null,
    address_line2: null,
    address_state: null,
    address_zip: null,
    address_zip_check: null,
    brand: details.brand,
    country: details.country,
    customer,
    cvc_check: 'pass',
    dynamic_last4: null,
    exp_month: 12,
    exp_year: expYear,
    fingerprint: randomChars(16),
    funding: details.funding,
    last4: details.last4,
    metadata: {},
    name: null,
    regulated_status: 'unregulated',
    tokenization_method: null,
  };
}

export interface ChargeInput {
  amount: number;
  currency: string;
  customer: string | null;
  /** The legacy card source charged; null for a PaymentMethod charge. */
  card: Stripe.Card | null;
  /** A PaymentMethod charged through a PaymentIntent. */
  paymentMethod?: string;
  paymentIntent?: string;
  description: string | null;
  metadata: Record<string, string>;
  receiptEmail: string | null;
  statementDescriptor: string | null;
  succeeded: boolean;
  /** Why it failed: `card_declined` (default) or `insufficient_funds`. */
  failureCode?: 'card_declined' | 'insufficient_funds';
}

const FAILURE_MESSAGES = {
  card_declined: 'Your card was declined.',
  insufficient_funds: 'Your card has insufficient funds.',
};

export function makeCharge(created: number, input: ChargeInput): Stripe.Charge {
  const { card, succeeded } = input;
  const failure = input.failureCode ?? 'card_declined';
  return {
    id: newId('ch'),
    object: 'charge',
    amount: input.amount,
    amount_captured: succeeded ? input.amount : 0,
    amount_refunded: 0,
    application: null,
    application_fee: null,
    application_fee_amount: null,
    balance_transaction: succeeded ? newId('txn') : null,
    billing_details: { address: null, email: null, name: null, phone: null, tax_id: null },
    calculated_statement_descriptor: input.statementDescriptor ?? 'TOLLGATE SANDBOX',
    captured: succeeded,
    created,
    currency: input.currency,
    customer: input.customer,
    description: input.description,
    disputed: false,
    failure_balance_transaction: null,
    failure_code: succeeded ? null : failure,
    failure_message: succeeded ? null : FAILURE_MESSAGES[failure],
    fraud_details: {},
    livemode: false,
    metadata: input.metadata,
    on_behalf_of: null,
    outcome: {
      advice_code: null,
      network_advice_code: null,
      network_decline_code: null,
      network_status: succeeded ? 'approved_by_network' : 'declined_by_network',
      reason: succeeded ? null : failure === 'card_declined' ? 'generic_decline' : failure,
      risk_level: 'normal',
      seller_message: succeeded
        ? 'Payment complete.'
        : 'The bank did not return any further details with this decline.',
      type: succeeded ? 'authorized' : 'issuer_declined',
    },
    paid: succeeded,
    payment_intent: input.paymentIntent ?? null,
    payment_method: input.paymentMethod ?? card?.id ?? null,
    payment_method_details: null,
    receipt_email: input.receiptEmail,
    receipt_number: null,
    receipt_url: null,
    refunded: false,
    review: null,
    shipping: null,
    source: input.paymentMethod ? null : card,
    source_transfer: null,
    statement_descriptor: input.statementDescriptor,
    statement_descriptor_suffix: null,
    status: succeeded ? 'succeeded' : 'failed',
    transfer_data: null,
    transfer_group: null,
  };
}
