import type Stripe from 'stripe';
import { makeCoupon, makePlanAndPrice, makeProduct } from '../objects/catalog.js';
import { StripeSandboxError } from '../objects/errors.js';
import { makeMeter } from '../objects/meters.js';
import type { SandboxContext } from './context.js';
import { activeMeter } from './meters.js';

/** A plan as seeded from options. */
export interface SandboxPlan {
  id: string;
  /** In the currency's smallest unit. */
  amount: number;
  currency?: string;
  interval: 'month' | 'year';
  intervalCount?: number;
  /** The product's name (shown on invoice lines); `name` is accepted as an alias. */
  product?: string;
  name?: string;
  nickname?: string;
  trial_period_days?: number;
  /**
   * A metered price: the event name of the Billing Meter (a `sum` meter, made if absent) whose
   * usage it bills per unit at `amount`, in arrears at each renewal.
   */
  meter?: string;
}

/** A coupon as seeded from options. */
export interface SandboxCoupon {
  id: string;
  name?: string;
  percent_off?: number;
  amount_off?: number;
  currency?: string;
  duration?: 'once' | 'repeating' | 'forever';
  duration_in_months?: number;
}

export function seedPlan(ctx: SandboxContext, plan: SandboxPlan): Stripe.Plan {
  const now = ctx.store.now();
  const product = makeProduct(now, plan.product ?? plan.name ?? plan.nickname ?? plan.id);
  ctx.store.products.set(product.id, product);
  return storeRecurring(ctx, {
    id: plan.id,
    amount: plan.amount,
    currency: plan.currency ?? 'usd',
    interval: plan.interval,
    intervalCount: plan.intervalCount ?? 1,
    product: product.id,
    nickname: plan.nickname ?? null,
    trialPeriodDays: plan.trial_period_days ?? null,
    metadata: {},
    meter: plan.meter ? seedMeter(ctx, plan.meter).id : null,
  });
}

function seedMeter(ctx: SandboxContext, eventName: string): Stripe.Billing.Meter {
  const found = activeMeter(ctx, eventName);
  if (found) return found;
  const meter = makeMeter(ctx.store.now(), {
    displayName: eventName,
    eventName,
    formula: 'sum',
    customerPayloadKey: 'stripe_customer_id',
    valuePayloadKey: 'value',
  });
  ctx.store.meters.set(meter.id, meter);
  return meter;
}

export function seedCoupon(ctx: SandboxContext, coupon: SandboxCoupon): Stripe.Coupon {
  const made = makeCoupon(ctx.store.now(), {
    id: coupon.id,
    name: coupon.name ?? null,
    percentOff: coupon.percent_off ?? null,
    amountOff: coupon.amount_off ?? null,
    currency: coupon.currency ?? null,
    duration: coupon.duration ?? 'once',
    durationInMonths: coupon.duration_in_months ?? null,
  });
  ctx.store.coupons.set(made.id, made);
  return made;
}

export function storeRecurring(
  ctx: SandboxContext,
  input: Parameters<typeof makePlanAndPrice>[1],
): Stripe.Plan {
  if (input.id && ctx.store.plans.has(input.id)) {
    throw StripeSandboxError.invalid('Plan already exists.', 'id', 'resource_already_exists');
  }
  const { plan, price } = makePlanAndPrice(ctx.store.now(), input);
  ctx.store.plans.set(plan.id, plan);
  ctx.store.prices.set(price.id, price);
  return plan;
}
