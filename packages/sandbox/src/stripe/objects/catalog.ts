import type Stripe from 'stripe';
import { newId } from './ids.js';
import { addMonths, type Interval } from './periods.js';

/** Decimal fields travel as strings on the wire; the SDK turns them into its Decimal type. */
export function decimal(value: number | string): Stripe.Decimal {
  return String(value) as unknown as Stripe.Decimal;
}

export interface RecurringInput {
  id?: string;
  amount: number;
  currency: string;
  interval: Interval;
  intervalCount: number;
  product: string;
  nickname: string | null;
  trialPeriodDays: number | null;
  metadata: Record<string, string>;
  /** A metered price bills the usage its meter (an id) aggregates, in arrears. Default: licensed. */
  meter?: string | null;
}

export function makeProduct(created: number, name: string, id = newId('prod')): Stripe.Product {
  return {
    id,
    object: 'product',
    active: true,
    created,
    default_price: null,
    description: null,
    images: [],
    livemode: false,
    marketing_features: [],
    metadata: {},
    name,
    package_dimensions: null,
    shippable: null,
    tax_code: null,
    tax_details: null,
    type: 'service',
    updated: created,
    url: null,
  };
}

/**
 * A recurring price and the legacy plan with the same id: Stripe accepts either id wherever a
 * price or plan is expected, and a subscription item carries both objects.
 */
export function makePlanAndPrice(
  created: number,
  input: RecurringInput,
): { plan: Stripe.Plan; price: Stripe.Price } {
  const id = input.id ?? newId('price');
  const meter = input.meter ?? null;
  const usageType = meter ? 'metered' : 'licensed';
  const plan: Stripe.Plan = {
    id,
    object: 'plan',
    active: true,
    amount: input.amount,
    amount_decimal: decimal(input.amount),
    billing_scheme: 'per_unit',
    created,
    currency: input.currency,
    interval: input.interval,
    interval_count: input.intervalCount,
    livemode: false,
    metadata: input.metadata,
    meter,
    nickname: input.nickname,
    product: input.product,
    tiers_mode: null,
    transform_usage: null,
    trial_period_days: input.trialPeriodDays,
    usage_type: usageType,
  };
  const price: Stripe.Price = {
    id,
    object: 'price',
    active: true,
    billing_scheme: 'per_unit',
    created,
    currency: input.currency,
    custom_unit_amount: null,
    livemode: false,
    lookup_key: null,
    metadata: input.metadata,
    nickname: input.nickname,
    product: input.product,
    recurring: {
      interval: input.interval,
      interval_count: input.intervalCount,
      meter,
      trial_period_days: input.trialPeriodDays,
      usage_type: usageType,
    },
    tax_behavior: 'unspecified',
    tiers_mode: null,
    transform_quantity: null,
    type: 'recurring',
    unit_amount: input.amount,
    unit_amount_decimal: decimal(input.amount),
  };
  return { plan, price };
}

export interface CouponInput {
  id?: string;
  name?: string | null;
  percentOff?: number | null;
  amountOff?: number | null;
  currency?: string | null;
  duration: Stripe.Coupon.Duration;
  durationInMonths?: number | null;
  metadata?: Record<string, string>;
}

export function makeCoupon(created: number, input: CouponInput): Stripe.Coupon {
  return {
    id: input.id ?? newId('co').slice(3, 11),
    object: 'coupon',
    amount_off: input.amountOff ?? null,
    created,
    currency: input.amountOff ? (input.currency ?? 'usd') : null,
    duration: input.duration,
    duration_in_months: input.duration === 'repeating' ? (input.durationInMonths ?? 1) : null,
    livemode: false,
    max_redemptions: null,
    metadata: input.metadata ?? {},
    name: input.name ?? null,
    percent_off: input.percentOff ?? null,
    redeem_by: null,
    times_redeemed: 0,
    valid: true,
  };
}

export interface TaxRateInput {
  displayName: string;
  percentage: number;
  inclusive: boolean;
  description: string | null;
  jurisdiction: string | null;
  country: string | null;
  metadata: Record<string, string>;
}

export function makeTaxRate(created: number, input: TaxRateInput): Stripe.TaxRate {
  return {
    id: newId('txr'),
    object: 'tax_rate',
    active: true,
    country: input.country,
    created,
    description: input.description,
    display_name: input.displayName,
    effective_percentage: input.percentage,
    flat_amount: null,
    inclusive: input.inclusive,
    jurisdiction: input.jurisdiction,
    jurisdiction_level: null,
    livemode: false,
    metadata: input.metadata,
    percentage: input.percentage,
    rate_type: 'percentage',
    state: null,
    tax_type: null,
  };
}

/** A discount: a coupon applied to a customer, subscription or invoice. */
export function makeDiscount(
  start: number,
  coupon: Stripe.Coupon,
  owner: { customer: string; subscription?: string | null; invoice?: string | null },
): Stripe.Discount {
  const end =
    coupon.duration === 'repeating' && coupon.duration_in_months
      ? addMonths(start, coupon.duration_in_months)
      : null;
  return {
    id: newId('di'),
    object: 'discount',
    checkout_session: null,
    customer: owner.customer,
    customer_account: null,
    end,
    invoice: owner.invoice ?? null,
    invoice_item: null,
    promotion_code: null,
    source: { coupon, type: 'coupon' },
    start,
    subscription: owner.subscription ?? null,
    subscription_item: null,
  };
}
