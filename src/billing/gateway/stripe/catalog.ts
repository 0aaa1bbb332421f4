import type { CouponConfig, PlanConfig } from '../../config.js';

/** A plan as the Stripe sandbox (`@tollgate/sandbox/stripe`) is seeded with. */
export interface SandboxPlan {
  id: string;
  /** Minor units. */
  amount: number;
  currency: string;
  interval: 'month' | 'year';
  product: string;
  nickname: string;
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
