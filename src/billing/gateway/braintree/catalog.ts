import type { CouponConfig, PlanConfig } from '../../config.js';
import { toMajor, toMinor } from '../../money.js';
import type { MeteredSeed } from '../metered-seeds.js';

/** A plan as the Braintree sandbox (`@tollgate/sandbox/braintree`) is seeded with; prices in the full unit. */
export interface SandboxPlan {
  id: string;
  name: string;
  price: string;
  /** Months between charges. */
  billingFrequency: number;
  currencyIsoCode: string;
  description?: string;
  trialPeriod: boolean;
  trialDuration?: number;
  trialDurationUnit?: 'day';
}

/** A discount as the Braintree sandbox is seeded with. */
export interface SandboxDiscount {
  id: string;
  name: string;
  amount: string;
  neverExpires: boolean;
}

/**
 * A configured amount as Braintree's decimal string of the full unit. A string is taken as that
 * already (`"9.00"`); a number is minor units, as in the Stripe edition's catalog (`900` → `"9.00"`),
 * so one `billing.plans` list serves both editions.
 */
export function braintreeAmount(amount: number | string, currency: string): string {
  return typeof amount === 'string'
    ? toMajor(toMinor(amount, currency), currency)
    : toMajor(amount, currency);
}

/** `billing.plans` as Braintree sandbox plans: monthly = every month, yearly = every 12 months. */
export function sandboxPlans(plans: readonly PlanConfig[], currency: string): SandboxPlan[] {
  return plans.map((plan) => ({
    id: plan.id,
    name: plan.name,
    price: braintreeAmount(plan.amount, currency),
    billingFrequency: plan.interval === 'year' ? 12 : 1,
    currencyIsoCode: currency.toUpperCase(),
    description: plan.description,
    trialPeriod: Boolean(plan.trialDays),
    trialDuration: plan.trialDays,
    trialDurationUnit: plan.trialDays ? 'day' : undefined,
  }));
}

/**
 * `billing.coupons` as Braintree discounts. Braintree discounts are fixed amounts; a percent-off
 * coupon is seeded at 0.00 and the adapter sets its amount from the subscription's price each time
 * it applies it. Coupons last as long as the subscription, like the Stripe edition's `forever`.
 */
export function sandboxDiscounts(coupons: readonly CouponConfig[], currency: string): SandboxDiscount[] {
  return coupons.map((coupon) => ({
    id: coupon.id,
    name: coupon.percentOff !== undefined ? `${coupon.id} (${coupon.percentOff}% off)` : coupon.id,
    amount: coupon.amountOff !== undefined ? braintreeAmount(coupon.amountOff, currency) : '0.00',
    neverExpires: true,
  }));
}

/** The plans' metered prices as Braintree add-ons (one unit each), billed as usage is reported. */
export function sandboxAddOns(seeds: readonly MeteredSeed[], currency: string): SandboxDiscount[] {
  return seeds.map((m) => ({
    id: m.price,
    name: m.meter,
    amount: toMajor(m.unitAmount, currency),
    neverExpires: true,
  }));
}
