import { describe, expect, it, vi } from 'vitest';
import { PaymentGatewayKey } from '../../../src/billing/index.js';
import type { ContractContext, TestUser } from './context.js';

/**
 * A plan change the provider cannot collect is refused, never granted unpaid: a swap or a quantity
 * change on a card that declines throws `card_declined` and leaves the subscription on what was
 * paid for — locally, at the provider, and after the webhooks the attempt caused.
 */
export function declinedChangeCases(ctx: ContractContext): void {
  const { harness, newUser, reload, localRows, expectBillingError, paidAmounts } = ctx;
  const { plans, tokens } = harness;

  /** An active subscription on `plan` whose card then starts declining. */
  async function onDecliningCard(plan: string, quantity = 1) {
    const user = await newUser();
    const sub = await user.newSubscription('main', plan).quantity(quantity).create(tokens.card);
    await (await reload(user)).updateCard(tokens.failsLater);
    await ctx.sandbox.settled();
    return { user: await reload(user), sub, paid: await paidAmounts(await reload(user)) };
  }

  /** The subscription as the app and the provider hold it once every webhook was delivered. */
  async function settledState(user: TestUser, providerId: string) {
    await ctx.sandbox.settled();
    const [row] = await localRows(user);
    const sub = (await user.subscription('main'))!;
    return { row, sub, remote: await ctx.sandbox.subscription(providerId) };
  }

  /** With a working card again, the provider's retries collect nothing for the refused change. */
  async function nothingCollectedLater(user: TestUser, paid: number[]) {
    await (await reload(user)).updateCard(tokens.card);
    await ctx.sandbox.advanceDays(8);
    expect(await paidAmounts(await reload(user))).toEqual(paid);
  }

  describe('a change the card cannot pay for is refused', () => {
    for (const target of ['other', 'yearly'] as const) {
      it(`swap to the ${target === 'other' ? 'dearer monthly' : 'yearly'} plan on a declining card: card_declined, the old plan kept, nothing granted`, async () => {
        const { user, sub, paid } = await onDecliningCard(plans.monthly.id);
        await expectBillingError(sub.swap(plans[target].id), 'card_declined');
        expect(sub.plan).toBe(plans.monthly.id);
        const { sub: after, remote } = await settledState(user, sub.providerId);
        expect(after.plan).toBe(plans.monthly.id);
        expect(after.status).toBe('active');
        expect(await user.subscribedToPlan(plans[target].id, 'main')).toBe(false);
        expect(await user.subscribedToPlan(plans.monthly.id, 'main')).toBe(true);
        // The provider's subscription (the one the row names) still bills the old plan.
        const live = await ctx.sandbox.subscription(after.providerId);
        expect(live).toMatchObject({ plan: plans.monthly.id });
        expect(live?.status).not.toMatch(/cancel|past/i);
        if (after.providerId === sub.providerId) expect(remote?.plan).toBe(plans.monthly.id);
        expect(await paidAmounts(user)).toEqual(paid);
        await nothingCollectedLater(user, paid);
        expect((await user.subscription('main'))!.plan).toBe(plans.monthly.id);
      });
    }

    it('a swap refused during the grace period leaves the cancellation in place, here and at the provider', async () => {
      const user = await newUser();
      const sub = await user.newSubscription('main', plans.monthly.id).create(tokens.card);
      await sub.cancel();
      await (await reload(user)).updateCard(tokens.failsLater);
      const paid = await paidAmounts(await reload(user));
      await expectBillingError(sub.swap(plans.other.id), 'card_declined');
      const { sub: after } = await settledState(user, sub.providerId);
      expect(after.onGracePeriod()).toBe(true);
      expect(after.plan).toBe(plans.monthly.id);
      // The provider ends it with the paid period: nothing is billed after it, access ends.
      await (await reload(user)).updateCard(tokens.card);
      await ctx.sandbox.advanceDays(32);
      expect(await paidAmounts(await reload(user))).toEqual(paid);
      expect(await user.subscribed('main')).toBe(false);
    });

    it('a swap refused after a webhook stored the lifted cancellation puts the cancellation back here too', async () => {
      const user = await newUser();
      const sub = await user.newSubscription('main', plans.monthly.id).create(tokens.card);
      await sub.cancel();
      await (await reload(user)).updateCard(tokens.failsLater);
      await ctx.sandbox.settled();
      const gateway = ctx.t.app.container.make(PaymentGatewayKey);
      const update = gateway.updateSubscription.bind(gateway);
      // Between the resume and the plan change, the provider's subscription is not cancelled: a
      // webhook handled then stores it so (the handler reads the provider as it is at that moment).
      const spy = vi.spyOn(gateway, 'updateSubscription').mockImplementationOnce(async (id, changes) => {
        await ctx.t.app.db
          .updateTable('subscriptions')
          .set({ ends_at: null })
          .where('id', '=', sub.id)
          .execute();
        return update(id, changes);
      });
      try {
        await expectBillingError(sub.swap(plans.other.id), 'card_declined');
      } finally {
        spy.mockRestore();
      }
      const { sub: after } = await settledState(user, sub.providerId);
      expect([after.onGracePeriod(), after.plan]).toEqual([true, plans.monthly.id]);
    });

    if (harness.capabilities.supportsQuantities) {
      it('quantity change on a declining card: card_declined, the old quantity kept, nothing granted', async () => {
        const { user, sub, paid } = await onDecliningCard(plans.monthly.id, 2);
        await expectBillingError(sub.updateQuantity(5), 'card_declined');
        expect(sub.quantity).toBe(2);
        await expectBillingError(sub.incrementQuantity(), 'card_declined');
        const { sub: after, remote } = await settledState(user, sub.providerId);
        expect([after.quantity, after.status]).toEqual([2, 'active']);
        expect(remote).toMatchObject({ plan: plans.monthly.id, quantity: 2 });
        expect(await paidAmounts(user)).toEqual(paid);
        await nothingCollectedLater(user, paid);
        expect((await user.subscription('main'))!.quantity).toBe(2);
      });
    } else {
      it('quantity change on a declining card: refused as unsupported, nothing changed or charged', async () => {
        const { user, sub, paid } = await onDecliningCard(plans.monthly.id);
        await expectBillingError(sub.updateQuantity(5), 'unsupported_by_edition');
        const { sub: after } = await settledState(user, sub.providerId);
        expect([after.plan, after.status]).toEqual([plans.monthly.id, 'active']);
        expect(await paidAmounts(user)).toEqual(paid);
      });
    }
  });
}
