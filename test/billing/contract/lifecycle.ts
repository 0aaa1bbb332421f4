import { describe, expect, it } from 'vitest';
import { type ContractContext, DAY_MS } from './context.js';

/** Cancel, grace period, resume, swap (with trials and quantities), quantities. */
export function lifecycleCases(ctx: ContractContext): void {
  const { harness, clock, newUser, reload, expectBillingError, paidAmounts } = ctx;
  const { plans, tokens } = ctx.harness;
  describe('cancel, grace period, resume', () => {
    it('cancel(): on grace period until the end of the paid period, then not subscribed', async () => {
      const user = await newUser();
      const created = clock.now().getTime();
      const sub = await user.newSubscription('main', plans.monthly.id).create(tokens.card);
      await ctx.sandbox.advanceDays(3);
      await sub.cancel();
      expect(sub.cancelled()).toBe(true);
      expect(sub.onGracePeriod()).toBe(true);
      expect(sub.active()).toBe(true);
      expect(await user.subscribed('main')).toBe(true);
      // The paid period is one month from the start.
      const endsAt = new Date(sub.ends_at!).getTime();
      expect(endsAt).toBeGreaterThan(created + 27 * DAY_MS);
      expect(endsAt).toBeLessThanOrEqual(created + 31 * DAY_MS);

      clock.set(endsAt + 60_000);
      await ctx.sandbox.advanceDays(0);
      const later = (await user.subscription('main'))!;
      expect(later.onGracePeriod()).toBe(false);
      expect(later.ended()).toBe(true);
      expect(await user.subscribed('main')).toBe(false);
      expect(await paidAmounts(await reload(user))).toEqual([harness.monthlyMinor]);
    });

    it('cancel() during a trial: the grace period ends with the trial', async () => {
      const user = await newUser();
      const sub = await user.newSubscription('main', plans.monthly.id).trialDays(7).create(tokens.card);
      await sub.cancel();
      expect(sub.ends_at).toBe(sub.trial_ends_at);
      expect(sub.onGracePeriod() && sub.onTrial()).toBe(true);
      await ctx.sandbox.advanceDays(8);
      expect(await user.subscribed('main')).toBe(false);
      expect(await paidAmounts(await reload(user))).toEqual([]);
    });

    it('cancelNow(): cancelled at once, not subscribed', async () => {
      const user = await newUser();
      const sub = await user.newSubscription('main', plans.monthly.id).create(tokens.card);
      await sub.cancelNow();
      expect(sub.cancelled()).toBe(true);
      expect(sub.onGracePeriod()).toBe(false);
      expect(await user.subscribed('main')).toBe(false);
      expect((await ctx.sandbox.subscription(sub.providerId))?.status).toMatch(/cancel/i);
    });

    it('resume() within the grace period: active again, no immediate charge, billed on the original cycle', async () => {
      const user = await newUser();
      const start = clock.now().getTime();
      const sub = await user.newSubscription('main', plans.monthly.id).create(tokens.card);
      await ctx.sandbox.advanceDays(5);
      await sub.cancel();
      const periodEnd = new Date(sub.ends_at!).getTime();
      await ctx.sandbox.advanceDays(5);
      await sub.resume();
      expect(sub.cancelled()).toBe(false);
      expect(sub.ends_at).toBeNull();
      expect(await user.subscribed('main')).toBe(true);
      expect(await paidAmounts(await reload(user))).toEqual([harness.monthlyMinor]);

      // The next charge comes at the end of the original period, not a month after resume().
      clock.set(periodEnd - DAY_MS);
      await ctx.sandbox.advanceDays(0);
      expect(await paidAmounts(await reload(user))).toEqual([harness.monthlyMinor]);
      clock.set(periodEnd + 60_000);
      await ctx.sandbox.advanceDays(0);
      expect(await paidAmounts(await reload(user))).toEqual([harness.monthlyMinor, harness.monthlyMinor]);
      expect(await user.subscribed('main')).toBe(true);
      expect(periodEnd).toBeGreaterThan(start);
    });

    it('swap() during the grace period undoes the cancellation; an ended subscription cannot be swapped', async () => {
      const user = await newUser();
      const sub = await user.newSubscription('main', plans.monthly.id).create(tokens.card);
      await sub.cancel();
      await sub.swap(plans.other.id);
      expect(sub.cancelled()).toBe(false);
      expect((await user.subscription('main'))!.ends_at).toBeNull();
      await sub.cancelNow();
      await expectBillingError(sub.swap(plans.monthly.id), 'subscription_cancelled');
    });

    it('after a subscription ended, a new one of the same name is the one that counts', async () => {
      const user = await newUser();
      const first = await user.newSubscription('main', plans.monthly.id).create(tokens.card);
      await first.cancelNow();
      expect(await user.subscribed('main')).toBe(false);
      const second = await user.newSubscription('main', plans.other.id).create();
      expect((await user.subscription('main'))!.id).toBe(second.id);
      expect(await user.subscribed('main', plans.other.id)).toBe(true);
      expect(await user.subscriptions()).toHaveLength(2);
    });

    it('resume() outside the grace period throws not_on_grace_period', async () => {
      const user = await newUser();
      const sub = await user.newSubscription('main', plans.monthly.id).create(tokens.card);
      await expectBillingError(sub.resume(), 'not_on_grace_period');
      await sub.cancelNow();
      await expectBillingError(sub.resume(), 'not_on_grace_period');
    });
  });

  describe('swap', () => {
    it('active → same status, new plan', async () => {
      const user = await newUser();
      const sub = await user.newSubscription('main', plans.monthly.id).create(tokens.card);
      await sub.swap(plans.other.id);
      expect(sub.plan).toBe(plans.other.id);
      expect(sub.active() && !sub.onTrial()).toBe(true);
      expect(await user.subscribedToPlan(plans.other.id, 'main')).toBe(true);
      expect((await ctx.sandbox.subscription(sub.providerId))?.plan).toBe(plans.other.id);
    });

    it('in trial → keeps the trial (and the quantity where the edition has quantities)', async () => {
      const user = await newUser();
      const quantity = harness.capabilities.supportsQuantities ? 3 : 1;
      const sub = await user
        .newSubscription('main', plans.monthly.id)
        .trialDays(10)
        .quantity(quantity)
        .create(tokens.card);
      const trialEnds = sub.trial_ends_at;
      await sub.swap(plans.other.id);
      expect(sub.plan).toBe(plans.other.id);
      expect(sub.trial_ends_at).toBe(trialEnds);
      expect(sub.onTrial()).toBe(true);
      const remote = await ctx.sandbox.subscription(sub.providerId);
      expect(remote?.plan).toBe(plans.other.id);
      if (harness.capabilities.supportsQuantities) {
        expect(sub.quantity).toBe(3);
        expect(remote?.quantity).toBe(3);
      }
      expect(await paidAmounts(await reload(user))).toEqual([]);
    });

    it('in trial → skipTrial() then swap(plan) → active on the new plan, billed at once', async () => {
      const user = await newUser();
      const sub = await user.newSubscription('main', plans.monthly.id).trialDays(10).create(tokens.card);
      await sub.skipTrial().swap(plans.other.id);
      expect(sub.onTrial()).toBe(false);
      expect(sub.trial_ends_at).toBeNull();
      expect(sub.plan).toBe(plans.other.id);
      expect(sub.active()).toBe(true);
      const fresh = (await user.subscription('main'))!;
      expect(fresh.onTrial()).toBe(false);
      expect(await paidAmounts(await reload(user))).toEqual([harness.otherMinor]);
    });
  });

  describe('quantities', () => {
    if (harness.capabilities.supportsQuantities) {
      it('quantity(n) at creation, then increment, decrement (never below 1) and update', async () => {
        const user = await newUser();
        const sub = await user.newSubscription('main', plans.monthly.id).quantity(2).create(tokens.card);
        expect(sub.quantity).toBe(2);
        expect(await paidAmounts(await reload(user))).toEqual([2 * harness.monthlyMinor]);
        await sub.incrementQuantity();
        expect(sub.quantity).toBe(3);
        await sub.incrementQuantity(2);
        expect(sub.quantity).toBe(5);
        await sub.decrementQuantity(3);
        expect(sub.quantity).toBe(2);
        await sub.decrementQuantity(5);
        expect(sub.quantity).toBe(1);
        await sub.updateQuantity(7);
        expect(sub.quantity).toBe(7);
        expect((await ctx.sandbox.subscription(sub.providerId))?.quantity).toBe(7);
        expect((await user.subscription('main'))!.quantity).toBe(7);
        await expectBillingError(sub.updateQuantity(0), 'invalid_quantity');
      });
    } else {
      it('quantity operations throw unsupported_by_edition naming the edition', async () => {
        const user = await newUser();
        const err = await expectBillingError(
          user.newSubscription('main', plans.monthly.id).quantity(2).create(tokens.card),
          'unsupported_by_edition',
        );
        expect(err.message).toContain(harness.edition);
        const sub = await user.newSubscription('main', plans.monthly.id).create(tokens.card);
        await expectBillingError(sub.incrementQuantity(), 'unsupported_by_edition');
        await expectBillingError(sub.updateQuantity(3), 'unsupported_by_edition');
      });
    }
  });
}
