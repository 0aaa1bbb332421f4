import { describe, expect, it } from 'vitest';
import { PaymentGatewayKey } from '../../../src/billing/index.js';
import { type ContractContext, DAY_MS } from './context.js';

/** `newSubscription(...).create(...)`, coupons, trials with a card and generic trials. */
export function creationCases(ctx: ContractContext): void {
  const { harness, clock, newUser, reload, customerId, localRows, expectBillingError, paidAmounts } = ctx;
  const { plans, tokens } = ctx.harness;
  it('the provider declares the capabilities the harness expects', () => {
    const { capabilities } = ctx.t.app.container.make(PaymentGatewayKey);
    expect({
      supportsQuantities: capabilities.supportsQuantities,
      supportsPaypal: capabilities.supportsPaypal,
      amountUnit: capabilities.amountUnit,
    }).toEqual(harness.capabilities);
    expect(capabilities.edition).toBe(harness.edition);
  });

  describe('newSubscription(name, plan).create(token)', () => {
    it('none → active: stores the customer id, card, and the subscription record; bills at once', async () => {
      const user = await newUser();
      const sub = await user.newSubscription('main', plans.monthly.id).create(tokens.card);
      const fresh = await reload(user);
      expect(customerId(fresh)).toBeTruthy();
      expect(fresh.card_brand).toBe(harness.cardOf.card.brand);
      expect(fresh.card_last_four).toBe(harness.cardOf.card.lastFour);
      expect(sub.plan).toBe(plans.monthly.id);
      expect(sub.providerId).toBeTruthy();
      expect(sub.name).toBe('main');
      expect(sub.active() && sub.valid() && !sub.onTrial() && !sub.cancelled()).toBe(true);
      expect(await fresh.subscribed('main')).toBe(true);
      expect(await fresh.subscribed('other-name')).toBe(false);
      expect(await fresh.subscribedToPlan(plans.monthly.id, 'main')).toBe(true);
      expect(await fresh.subscribedToPlan([plans.other.id, plans.monthly.id], 'main')).toBe(true);
      expect(await fresh.subscribedToPlan(plans.other.id, 'main')).toBe(false);
      expect(await fresh.subscribed('main', plans.other.id)).toBe(false);
      expect(await fresh.onPlan(plans.monthly.id)).toBe(true);
      expect((await fresh.subscriptions()).map((s) => s.name)).toEqual(['main']);
      expect(await paidAmounts(fresh)).toEqual([harness.monthlyMinor]);
      expect((await ctx.sandbox.subscription(sub.providerId))?.plan).toBe(plans.monthly.id);
    });

    it('a card declined at create throws card_declined with the provider message and leaves no subscription row', async () => {
      const user = await newUser();
      const err = await expectBillingError(
        user.newSubscription('main', plans.monthly.id).create(tokens.declined),
        'card_declined',
      );
      expect(err.message.length).toBeGreaterThan(0);
      expect(err.providerCode).toBeTruthy();
      expect(await localRows(user)).toEqual([]);
      expect(await (await reload(user)).subscribed('main')).toBe(false);
    });

    it('a card that attaches but fails its first charge throws and leaves no subscription row', async () => {
      const user = await newUser();
      await expectBillingError(
        user.newSubscription('main', plans.monthly.id).create(tokens.failsLater),
        'card_declined',
      );
      expect(await localRows(user)).toEqual([]);
      expect(await paidAmounts(await reload(user))).toEqual([]);
    });

    it('withCoupon applies the coupon to the charge', async () => {
      const user = await newUser();
      await user.newSubscription('main', plans.monthly.id).withCoupon(harness.coupon.id).create(tokens.card);
      const expected = Math.round(harness.monthlyMinor * (1 - harness.coupon.percentOff / 100));
      expect(await paidAmounts(await reload(user))).toEqual([expected]);
      const [invoice] = await (await reload(user)).invoices();
      expect(invoice?.hasDiscount()).toBe(true);
      expect(invoice?.rawTotal()).toBe(expected);
    });

    it('an unknown plan is a provider_error and leaves no subscription row', async () => {
      const user = await newUser();
      await expectBillingError(
        user.newSubscription('main', 'no-such-plan').create(tokens.card),
        'provider_error',
      );
      expect(await localRows(user)).toEqual([]);
    });
  });

  describe('trials', () => {
    it('trialDays(n): active in trial, trial end stored, nothing billed; when it passes the customer is charged', async () => {
      const user = await newUser();
      const sub = await user.newSubscription('main', plans.monthly.id).trialDays(10).create(tokens.card);
      expect(sub.onTrial()).toBe(true);
      expect(new Date(sub.trial_ends_at!).getTime()).toBe(clock.now().getTime() + 10 * DAY_MS);
      expect(await user.onTrial('main')).toBe(true);
      expect(await user.onTrial('main', plans.monthly.id)).toBe(true);
      expect(await user.onTrial('main', plans.other.id)).toBe(false);
      expect(await user.subscribed('main')).toBe(true);
      expect(await paidAmounts(await reload(user))).toEqual([]);

      await ctx.sandbox.advanceDays(11);
      const after = (await user.subscription('main'))!;
      expect(after.onTrial()).toBe(false);
      expect(after.active()).toBe(true);
      expect(await user.subscribed('main')).toBe(true);
      expect(await paidAmounts(await reload(user))).toEqual([harness.monthlyMinor]);
    });

    it('generic trial: onTrial() and onGenericTrial() until trial_ends_at passes, without a subscription', async () => {
      const ends = new Date(clock.now().getTime() + 5 * DAY_MS).toISOString();
      const user = await newUser({ trial_ends_at: ends });
      expect(user.onGenericTrial()).toBe(true);
      expect(await user.onTrial()).toBe(true);
      expect(await user.onTrial('main')).toBe(false);
      expect(await user.subscribed('main')).toBe(false);
      await ctx.sandbox.advanceDays(6);
      expect(user.onGenericTrial()).toBe(false);
      expect(await user.onTrial()).toBe(false);
    });

    it('generic trial → newSubscription().create(token) → active', async () => {
      const user = await newUser({
        trial_ends_at: new Date(clock.now().getTime() + 5 * DAY_MS).toISOString(),
      });
      await user.newSubscription('main', plans.monthly.id).create(tokens.card);
      expect(await user.subscribed('main')).toBe(true);
      expect((await user.subscription('main'))!.onTrial()).toBe(false);
    });
  });
}
