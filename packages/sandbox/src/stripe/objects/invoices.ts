import type Stripe from 'stripe';
import { decimal } from './catalog.js';
import { newId } from './ids.js';

export function makeInvoiceItem(
  created: number,
  fields: {
    customer: string;
    amount: number;
    currency: string;
    description: string | null;
    period: { start: number; end: number };
    metadata: Record<string, string>;
    subscription: string | null;
    proration: boolean;
    price: string | null;
  },
): Stripe.InvoiceItem {
  return {
    id: newId('ii'),
    object: 'invoiceitem',
    amount: fields.amount,
    currency: fields.currency,
    customer: fields.customer,
    customer_account: null,
    date: created,
    description: fields.description,
    discountable: true,
    discounts: [],
    invoice: null,
    livemode: false,
    metadata: fields.metadata,
    net_amount: fields.amount,
    parent: fields.subscription
      ? { type: 'subscription_details', subscription_details: { subscription: fields.subscription } }
      : null,
    period: fields.period,
    pricing: fields.price
      ? {
          price_details: { price: fields.price, product: '' },
          type: 'price_details',
          unit_amount_decimal: decimal(fields.amount),
        }
      : null,
    proration: fields.proration,
    quantity: 1,
    quantity_decimal: decimal(1),
    tax_rates: [],
    test_clock: null,
  };
}

export function makeInvoice(
  created: number,
  fields: Partial<Stripe.Invoice> & { customer: string; currency: string },
): Stripe.Invoice {
  const { id: given, ...rest } = fields;
  const id = given ?? newId('in');
  return {
    id,
    object: 'invoice',
    account_country: 'US',
    account_name: 'Tollgate Sandbox',
    account_tax_ids: null,
    amount_due: 0,
    amount_overpaid: 0,
    amount_paid: 0,
    amount_remaining: 0,
    amount_shipping: 0,
    application: null,
    attempt_count: 0,
    attempted: false,
    auto_advance: false,
    automatic_tax: { disabled_reason: null, enabled: false, liability: null, provider: null, status: null },
    automatically_finalizes_at: null,
    billing_reason: 'manual',
    collection_method: 'charge_automatically',
    created,
    custom_fields: null,
    customer_account: null,
    customer_address: null,
    customer_email: null,
    customer_name: null,
    customer_phone: null,
    customer_shipping: null,
    customer_tax_exempt: 'none',
    customer_tax_ids: [],
    default_payment_method: null,
    default_source: null,
    default_tax_rates: [],
    description: null,
    discounts: [],
    due_date: null,
    effective_at: null,
    ending_balance: null,
    footer: null,
    from_invoice: null,
    hosted_invoice_url: null,
    invoice_pdf: null,
    issuer: { type: 'self' },
    last_finalization_error: null,
    latest_revision: null,
    lines: { object: 'list', data: [], has_more: false, url: `/v1/invoices/${id}/lines` },
    livemode: false,
    metadata: {},
    next_payment_attempt: null,
    number: null,
    on_behalf_of: null,
    parent: null,
    payment_settings: { default_mandate: null, payment_method_options: null, payment_method_types: null },
    period_end: created,
    period_start: created,
    post_payment_credit_notes_amount: 0,
    pre_payment_credit_notes_amount: 0,
    receipt_number: null,
    rendering: null,
    shipping_cost: null,
    shipping_details: null,
    starting_balance: 0,
    statement_descriptor: null,
    status: 'draft',
    status_transitions: { finalized_at: null, marked_uncollectible_at: null, paid_at: null, voided_at: null },
    subtotal: 0,
    subtotal_excluding_tax: 0,
    test_clock: null,
    total: 0,
    total_discount_amounts: [],
    total_excluding_tax: 0,
    total_pretax_credit_amounts: [],
    total_taxes: [],
    webhooks_delivered_at: null,
    ...rest,
  };
}

export interface LineInput {
  amount: number;
  currency: string;
  description: string | null;
  period: { start: number; end: number };
  quantity: number | null;
  price: Stripe.Price | null;
  subscription: string | null;
  subscriptionItem: string | null;
  invoiceItem: string | null;
  proration: boolean;
  metadata: Record<string, string>;
}

export function makeLine(invoice: string, input: LineInput): Stripe.InvoiceLineItem {
  const fromSubscription = input.subscriptionItem !== null;
  return {
    id: newId('il'),
    object: 'line_item',
    amount: input.amount,
    currency: input.currency,
    description: input.description,
    discount_amounts: [],
    discountable: true,
    discounts: [],
    invoice,
    livemode: false,
    metadata: input.metadata,
    parent: fromSubscription
      ? {
          type: 'subscription_item_details',
          invoice_item_details: null,
          subscription_item_details: {
            invoice_item: input.invoiceItem,
            proration: input.proration,
            proration_details: { credited_items: null },
            subscription: input.subscription,
            subscription_item: input.subscriptionItem!,
          },
        }
      : {
          type: 'invoice_item_details',
          subscription_item_details: null,
          invoice_item_details: {
            invoice_item: input.invoiceItem ?? '',
            proration: input.proration,
            proration_details: { credited_items: null },
            subscription: input.subscription,
          },
        },
    period: input.period,
    pretax_credit_amounts: [],
    pricing: input.price
      ? {
          type: 'price_details',
          price_details: { price: input.price.id, product: String(input.price.product) },
          unit_amount_decimal: input.price.unit_amount_decimal,
        }
      : null,
    quantity: input.quantity,
    quantity_decimal: input.quantity === null ? null : decimal(input.quantity),
    subscription: input.subscription,
    subtotal: input.amount,
    taxes: [],
  };
}
