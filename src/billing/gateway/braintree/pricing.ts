import type braintree from 'braintree';
import type { CouponConfig } from '../../config.js';
import { BillingError } from '../../errors.js';
import type { SubscriptionTerms } from '../../invoices/issued-invoices.js';
import type { CurrencyUnit } from '../../money.js';
import { braintreeCall } from './errors.js';
import { type TaxContext, taxAt } from './map.js';
import type { BtModification, BtPlan, BtSubscription } from './types.js';

export const PLAN_CREDIT = 'plan-credit';

/** A discount to add to a subscription, as the SDK sends it. */
export interface DiscountAdd {
  inheritedFromId: string;
  amount?: string;
  numberOfBillingCycles?: number;
  neverExpires?: boolean;
}

/**
 * Plans (fetched once with `plan.all()`, again on a miss), prices with tax, and coupon amounts, in
 * the merchant account's currency (`unit`). Cashier-Braintree adds `taxPercentage()` to the
 * subscription's price; Braintree discounts are fixed amounts, so a configured percent-off coupon
 * gets its amount from that price.
 */
export class Pricing {
  #plans: Promise<Map<string, BtPlan>> | undefined;

  constructor(
    private readonly gateway: braintree.BraintreeGateway,
    private readonly coupons: readonly CouponConfig[],
    readonly unit: CurrencyUnit,
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
    const base = this.unit.minor((await this.plan(planId)).price);
    return Math.round((base * (10_000 + Math.round(taxPercentage * 100))) / 10_000);
  }

  /**
   * The tax a subscription's price carries: the stored rate when its terms still describe it,
   * else back out of price / plan price (two decimals; 9.74 / 9.00 reads 8.22, not 8.25).
   */
  async taxOf(sub: BtSubscription, terms?: SubscriptionTerms): Promise<number> {
    const context = await this.taxContext(sub, terms);
    return context.percentage ?? Math.max(0, Math.round((context.ratio - 1) * 10_000) / 100);
  }

  async taxContext(sub: BtSubscription, terms?: SubscriptionTerms): Promise<TaxContext> {
    const plan = await this.plan(sub.planId).catch(() => null);
    if (terms && termsDescribe(terms, sub, this.unit)) return taxAt(terms.taxPercentage, plan?.name ?? null);
    const base = plan ? this.unit.minor(plan.price) : 0;
    return { ratio: base > 0 ? this.unit.minor(sub.price) / base : 1, planName: plan?.name ?? null };
  }

  /** The discount for `couponId` on a subscription priced `price` (minor units). */
  couponDiscount(couponId: string, price: number): DiscountAdd {
    const percent = this.coupons.find((c) => c.id === couponId)?.percentOff;
    return percent === undefined
      ? { inheritedFromId: couponId }
      : { inheritedFromId: couponId, amount: this.unit.major(Math.round((price * percent) / 100)) };
  }

  /** The recurring amount of the coupons in `discounts` at `price` (what plan credit is weighed against). */
  couponTotal(discounts: DiscountAdd[], fallback: BtModification[] = []): number {
    return discounts.reduce((sum, d) => {
      const amount = d.amount ?? fallback.find((m) => m.id === d.inheritedFromId)?.amount;
      return sum + this.unit.minor(amount);
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

/** Stored terms still describe the subscription: same plan, same price (nobody re-priced it elsewhere). */
export function termsDescribe(terms: SubscriptionTerms, sub: BtSubscription, unit: CurrencyUnit): boolean {
  return terms.plan === sub.planId && terms.price === unit.minor(sub.price);
}

export function isApplicable(m: BtModification): boolean {
  return (
    m.neverExpires === true ||
    m.numberOfBillingCycles == null ||
    (m.currentBillingCycle ?? 0) < m.numberOfBillingCycles
  );
}
