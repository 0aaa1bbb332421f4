import type braintree from 'braintree';
import type { CouponConfig } from '../../config.js';
import { BillingError } from '../../errors.js';
import { toMajor } from '../../money.js';
import { braintreeCall } from './errors.js';
import { cents, type TaxContext } from './map.js';
import type { BtModification, BtPlan, BtSubscription } from './types.js';

export const PLAN_CREDIT = 'plan-credit';

/** A discount to add to a subscription, as the SDK sends it. */
export interface DiscountAdd {
  inheritedFromId: string;
  amount?: string;
  numberOfBillingCycles?: number;
  neverExpires?: boolean;
}

export const money = (minor: number): string => toMajor(minor, 'usd');

/**
 * Plans (fetched once with `plan.all()`, again on a miss), prices with tax, and coupon amounts.
 * Cashier-Braintree adds `taxPercentage()` to the subscription's price; Braintree discounts are
 * fixed amounts, so a configured percent-off coupon gets its amount from that price.
 */
export class Pricing {
  #plans: Promise<Map<string, BtPlan>> | undefined;

  constructor(
    private readonly gateway: braintree.BraintreeGateway,
    private readonly coupons: readonly CouponConfig[],
  ) {}

  async plan(id: string): Promise<BtPlan> {
    let plan = (await this.load()).get(id);
    if (!plan) {
      this.#plans = undefined;
      plan = (await this.load()).get(id);
    }
    if (!plan) {
      throw BillingError.provider(`Braintree: plan "${id}" does not exist.`, { providerCode: '91904' });
    }
    return plan;
  }

  private load(): Promise<Map<string, BtPlan>> {
    this.#plans ??= braintreeCall('plan.all', async () => {
      const plans = (await this.gateway.plan.all()) as unknown as BtPlan[];
      return new Map(plans.map((p) => [p.id, p]));
    }).catch((err: unknown) => {
      this.#plans = undefined;
      throw err;
    });
    return this.#plans;
  }

  /** The plan price plus tax, in minor units: `9.00` at 8.25% → 974 (rounded to the cent). */
  async priceWithTax(planId: string, taxPercentage: number): Promise<number> {
    const base = cents((await this.plan(planId)).price);
    return Math.round((base * (10_000 + Math.round(taxPercentage * 100))) / 10_000);
  }

  /** The tax a subscription's price carries, back out of price / plan price (two decimals). */
  async taxOf(sub: BtSubscription): Promise<number> {
    const ratio = (await this.taxContext(sub)).ratio;
    return Math.max(0, Math.round((ratio - 1) * 10_000) / 100);
  }

  async taxContext(sub: BtSubscription): Promise<TaxContext> {
    const plan = await this.plan(sub.planId).catch(() => null);
    const base = plan ? cents(plan.price) : 0;
    return { ratio: base > 0 ? cents(sub.price) / base : 1, planName: plan?.name ?? null };
  }

  /** The discount for `couponId` on a subscription priced `price` (minor units). */
  couponDiscount(couponId: string, price: number): DiscountAdd {
    const percent = this.coupons.find((c) => c.id === couponId)?.percentOff;
    return percent === undefined
      ? { inheritedFromId: couponId }
      : { inheritedFromId: couponId, amount: money(Math.round((price * percent) / 100)) };
  }

  /** The recurring amount of the coupons in `discounts` at `price` (what plan credit is weighed against). */
  couponTotal(discounts: DiscountAdd[], fallback: BtModification[] = []): number {
    return discounts.reduce((sum, d) => {
      const amount = d.amount ?? fallback.find((m) => m.id === d.inheritedFromId)?.amount;
      return sum + cents(amount);
    }, 0);
  }

  /** Re-priced updates for the percent-off coupons already on a subscription, at its new `price`. */
  couponUpdates(sub: BtSubscription, price: number) {
    return (sub.discounts ?? [])
      .filter((d) => this.coupons.some((c) => c.id === d.id && c.percentOff !== undefined))
      .map((d) => ({ existingId: d.id, amount: this.couponDiscount(d.id, price).amount }));
  }

  /** The coupons on a subscription (not the plan credit), to carry over to its replacement. */
  carriedCoupons(sub: BtSubscription, price: number): DiscountAdd[] {
    return (sub.discounts ?? [])
      .filter((d) => d.id !== PLAN_CREDIT && isApplicable(d))
      .map((d) => {
        const coupon = this.couponDiscount(d.id, price);
        return coupon.amount === undefined ? { inheritedFromId: d.id, amount: d.amount } : coupon;
      });
  }
}

export function isApplicable(m: BtModification): boolean {
  return (
    m.neverExpires === true ||
    m.numberOfBillingCycles == null ||
    (m.currentBillingCycle ?? 0) < m.numberOfBillingCycles
  );
}
