import { describe, expect, it } from 'vitest';
import type { ContractContext } from './context.js';

const DAYS_IN_PERIOD = 31; // the contract's clock starts on January 15th: the month to February 15th

/**
 * A coupon on a prorated upgrade: both providers discount the whole change, the credit for the
 * unused time as well as the remaining time, so the upgrade costs the coupon's share of the price
 * difference for the time left — the same in either edition.
 */
export function couponProrationCases(ctx: ContractContext): void {
  const { harness, newUser, reload, paidAmounts } = ctx;
  const { plans, tokens, coupon } = harness;

  describe('a coupon on a prorated upgrade', () => {
    it('charges the discounted difference for the rest of the period, credit included', async () => {
      const user = await newUser();
      const sub = await user
        .newSubscription('main', plans.monthly.id)
        .withCoupon(coupon.id)
        .create(tokens.card);
      await ctx.sandbox.advanceDays(10);
      await sub.swap(plans.other.id);
      const [, upgrade] = await paidAmounts(await reload(user));
      const share = (DAYS_IN_PERIOD - 10) / DAYS_IN_PERIOD;
      const difference = (harness.otherMinor - harness.monthlyMinor) * (1 - coupon.percentOff! / 100);
      // Stripe prorates by the second, Braintree by the day: within one day's worth of each other.
      const oneDay = difference / DAYS_IN_PERIOD;
      expect(upgrade).toBeGreaterThan(0);
      expect(Math.abs(upgrade! - difference * share)).toBeLessThanOrEqual(oneDay);
    });
  });
}
