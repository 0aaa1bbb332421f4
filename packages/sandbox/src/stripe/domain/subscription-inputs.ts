import type Stripe from 'stripe';
import { makeDiscount } from '../objects/catalog.js';
import { StripeSandboxError } from '../objects/errors.js';
import type { SandboxContext } from './context.js';
import { isMetered } from './meters.js';
import type { Params } from './params.js';

/** `items[n][price]` or the legacy `items[n][plan]`: both name the same catalog entry here. */
export function catalogFor(
  ctx: SandboxContext,
  item: Params,
  index: number,
): { plan: Stripe.Plan; price: Stripe.Price } {
  const price = item.str('price');
  const plan = item.str('plan');
  const id = price ?? plan;
  if (!id) throw StripeSandboxError.missingParam(`items[${index}][price]`);
  return ctx.store.recurring(id, `items[${index}][${price ? 'price' : 'plan'}]`);
}

export function quantityOf(item: Params, index: number, fallback = 1): number {
  const quantity = item.int('quantity') ?? fallback;
  if (quantity < 0) {
    throw StripeSandboxError.invalid(
      'Invalid positive integer',
      `items[${index}][quantity]`,
      'parameter_invalid_integer',
    );
  }
  return quantity;
}

/** A metered price's item carries no quantity (its usage is the quantity); others default to 1. */
export function itemQuantity(
  item: Params,
  index: number,
  price: Stripe.Price,
  fallback = 1,
): number | undefined {
  if (!isMetered(price)) return quantityOf(item, index, fallback);
  if (item.has('quantity'))
    throw StripeSandboxError.invalid(
      `Quantity should not be specified where usage_type is \`metered\`. Remove quantity from \`items[${index}]\`.`,
      `items[${index}][quantity]`,
    );
  return undefined;
}

/** `default_tax_rates[]`: a list of ids, or `''` to clear. */
export function taxRatesFrom(ctx: SandboxContext, p: Params): Stripe.TaxRate[] | undefined {
  if (!p.has('default_tax_rates')) return undefined;
  return p.strings('default_tax_rates').map((id) => ctx.store.taxRate(id));
}

/**
 * `discounts[n][coupon]` (current API), or `''` to clear; the legacy top-level `coupon`
 * is accepted too. Each coupon becomes a stored discount owned by the subscription.
 */
export function discountsFrom(
  ctx: SandboxContext,
  p: Params,
  owner: { customer: string; subscription: string },
): string[] | undefined {
  const coupons: string[] = [];
  if (p.has('discounts')) {
    p.objects('discounts').forEach((d, i) => {
      const coupon = d.str('coupon');
      if (!coupon)
        throw StripeSandboxError.invalid(
          'The sandbox supports discounts[n][coupon] only.',
          `discounts[${i}]`,
        );
      coupons.push(coupon);
    });
  } else if (p.str('coupon')) {
    coupons.push(p.str('coupon')!);
  } else return undefined;
  return coupons.map((id) => {
    const coupon = ctx.store.coupon(id);
    if (!coupon.valid) throw StripeSandboxError.invalid(`Coupon expired: ${id}`, 'coupon', 'coupon_expired');
    coupon.times_redeemed += 1;
    const discount = makeDiscount(ctx.store.now(), coupon, owner);
    ctx.store.discounts.set(discount.id, discount);
    return discount.id;
  });
}

/** The trial end asked for at creation: `trial_end` (timestamp or `now`), `trial_period_days`, or `trial_from_plan`. */
export function requestedTrialEnd(ctx: SandboxContext, p: Params, plan: Stripe.Plan): number | null {
  const now = ctx.store.now();
  const end = p.timestampOrNow('trial_end', now);
  if (end !== undefined) {
    if (end === now) return null;
    if (end < now)
      throw StripeSandboxError.invalid(
        'Invalid timestamp: must be an integer Unix timestamp in the future.',
        'trial_end',
      );
    return end;
  }
  const days = p.int('trial_period_days');
  if (days !== undefined) return days > 0 ? now + days * 86_400 : null;
  if (p.bool('trial_from_plan') && plan.trial_period_days) return now + plan.trial_period_days * 86_400;
  return null;
}
