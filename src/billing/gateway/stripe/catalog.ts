import type { CouponConfig, PlanConfig } from '../../config.js';
import type { MeteredSeed } from '../metered-seeds.js';

/** A plan as the Stripe sandbox (`@tollgate/sandbox/stripe`) is seeded with. */
export interface SandboxPlan {
  id: string;
  /** Minor units. */
  amount: number;
  currency: string;
  interval: 'month' | 'year';
  product: string;
  nickname?: string;
  /** A metered price: the Billing Meter (by event name) its usage is read from. */
  meter?: string;
}

/** A coupon as the Stripe sandbox is seeded with. */
export interface SandboxCoupon {
  id: string;
  name: string;
  percent_off?: number;
  amount_off?: number;
  currency?: string;
  duration: 'forever';
}

/** `billing.plans` as Stripe sandbox plans (amounts are already minor units in the Stripe edition). */
export function sandboxPlans(plans: readonly PlanConfig[], currency: string): SandboxPlan[] {
  return plans.map((plan) => ({
    id: plan.id,
    amount: Math.round(Number(plan.amount)),
    currency,
    interval: plan.interval,
    product: plan.name,
    nickname: plan.name,
  }));
}

/** The plans' metered prices as Stripe sandbox prices, each billed monthly from its Billing Meter. */
export function sandboxMeteredPlans(seeds: readonly MeteredSeed[], currency: string): SandboxPlan[] {
  return seeds.map((m) => ({
    id: m.price,
    amount: m.unitAmount,
    currency,
    interval: 'month',
    product: m.meter,
    meter: m.meter,
  }));
}

/** `billing.coupons` as Stripe sandbox coupons (`forever`, like a Cashier coupon on a subscription). */
export function sandboxCoupons(coupons: readonly CouponConfig[], currency: string): SandboxCoupon[] {
  return coupons.map((coupon) => ({
    id: coupon.id,
    name: coupon.id,
    percent_off: coupon.percentOff,
    amount_off: coupon.amountOff === undefined ? undefined : Math.round(Number(coupon.amountOff)),
    currency: coupon.amountOff === undefined ? undefined : currency,
    duration: 'forever',
  }));
}
