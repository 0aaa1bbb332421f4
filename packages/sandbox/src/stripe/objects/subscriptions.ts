import type Stripe from 'stripe';
import { newId } from './ids.js';

export function list<T>(data: T[], url: string, hasMore = false): Stripe.ApiList<T> {
  return { object: 'list', data, has_more: hasMore, url };
}

export function makeSubscriptionItem(
  created: number,
  subscription: string,
  catalog: { plan: Stripe.Plan; price: Stripe.Price },
  quantity: number | undefined,
  period: { start: number; end: number },
): Stripe.SubscriptionItem {
  const item: Stripe.SubscriptionItem = {
    id: newId('si'),
    object: 'subscription_item',
    billing_thresholds: null,
    created,
    current_period_end: period.end,
    current_period_start: period.start,
    current_trial: null,
    discounts: [],
    metadata: {},
    plan: catalog.plan,
    price: catalog.price,
    quantity,
    subscription,
    tax_rates: null,
  };
  // A metered item has no quantity field at all.
  if (quantity === undefined) delete item.quantity;
  return item;
}

export function makeSubscription(
  created: number,
  fields: Partial<Stripe.Subscription> & { customer: string },
): Stripe.Subscription {
  const { id: given, ...rest } = fields;
  const id = given ?? newId('sub');
  return {
    id,
    object: 'subscription',
    application: null,
    application_fee_percent: null,
    automatic_tax: { disabled_reason: null, enabled: false, liability: null },
    billing_cycle_anchor: created,
    billing_cycle_anchor_config: null,
    billing_mode: { flexible: null, type: 'classic' },
    billing_schedules: [],
    billing_thresholds: null,
    cancel_at: null,
    cancel_at_period_end: false,
    canceled_at: null,
    cancellation_details: { comment: null, feedback: null, feedback_option: null, reason: null },
    collection_method: 'charge_automatically',
    created,
    currency: 'usd',
    customer_account: null,
    days_until_due: null,
    default_payment_method: null,
    default_source: null,
    default_tax_rates: [],
    description: null,
    discounts: [],
    ended_at: null,
    invoice_settings: {
      account_tax_ids: null,
      custom_fields: null,
      description: null,
      footer: null,
      issuer: { type: 'self' },
    },
    items: { object: 'list', data: [], has_more: false, url: `/v1/subscription_items?subscription=${id}` },
    latest_invoice: null,
    livemode: false,
    managed_payments: null,
    metadata: {},
    next_pending_invoice_item_invoice: null,
    on_behalf_of: null,
    pause_collection: null,
    payment_settings: {
      payment_method_options: null,
      payment_method_types: null,
      save_default_payment_method: 'off',
    },
    pending_invoice_item_interval: null,
    pending_setup_intent: null,
    pending_update: null,
    schedule: null,
    start_date: created,
    status: 'incomplete',
    test_clock: null,
    transfer_data: null,
    trial_end: null,
    trial_settings: {
      end_behavior: { billing_cycle_anchor: null, missing_payment_method: 'create_invoice' },
    },
    trial_start: null,
    ...rest,
  };
}
