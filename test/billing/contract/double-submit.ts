import { describe, expect, it } from 'vitest';
import type { ContractContext } from './context.js';

const times = <T>(n: number, fn: () => Promise<T>) => Promise.all(Array.from({ length: n }, fn));

/** Issue 13, item 3: a double submit (or a retry) with one request key bills once. */
export function doubleSubmitCases(ctx: ContractContext): void {
  const { harness, newUser, reload, customerId, localRows, expectBillingError } = ctx;
  const { plans, tokens } = harness;

  describe('double submits and retries', () => {
    it('five concurrent create() with one request key: one customer, one provider subscription, one row', async () => {
      const user = await newUser();
      const before = ctx.sandbox.counts();
      const subs = await times(5, () =>
        user.newSubscription('main', plans.monthly.id).create(tokens.card, { requestKey: 'form-1' }),
      );
      expect(new Set(subs.map((s) => s.id)).size).toBe(1);
      expect(new Set(subs.map((s) => s.providerId)).size).toBe(1);
      expect(ctx.sandbox.counts()).toEqual({
        customers: before.customers + 1,
        subscriptions: before.subscriptions + 1,
      });
      expect(await localRows(user)).toHaveLength(1);
      expect(await ctx.paidAmounts(await reload(user))).toEqual([harness.monthlyMinor]);
    });

    it('five concurrent create() without a key: one succeeds, the others answer subscription_exists', async () => {
      const user = await newUser();
      const before = ctx.sandbox.counts();
      const results = await Promise.allSettled(
        Array.from({ length: 5 }, () => user.newSubscription('main', plans.monthly.id).create(tokens.card)),
      );
      expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
      for (const r of results.filter((r) => r.status === 'rejected')) {
        expect((r as PromiseRejectedResult).reason.code).toBe('subscription_exists');
      }
      expect(ctx.sandbox.counts().customers).toBe(before.customers + 1);
      expect(ctx.sandbox.counts().subscriptions).toBe(before.subscriptions + 1);
      expect(await localRows(user)).toHaveLength(1);
    });

    it('five concurrent charge() with one request key: one charge at the provider, the same response', async () => {
      const user = await newUser();
      await user.updateCard(tokens.card);
      const amount = harness.toEditionAmount(1500);
      const charges = await times(5, () => user.charge(amount, { requestKey: 'pay-1' }));
      expect(new Set(charges.map((c) => c.id)).size).toBe(1);
      expect(await ctx.sandbox.payments(customerId(await reload(user)))).toEqual([
        { amount: 1500, succeeded: true },
      ]);
      // A new key is a new charge; the old key with another amount is refused.
      await user.charge(amount, { requestKey: 'pay-2' });
      expect(await ctx.paidAmounts(await reload(user))).toEqual([1500, 1500]);
      await expectBillingError(
        user.charge(harness.toEditionAmount(900), { requestKey: 'pay-1' }),
        'request_key_reused',
      );
      await expectBillingError(user.charge(amount, { requestKey: 42 }), 'invalid_request_key');
    });

    it('a cancelled subscription does not block a new one with the same name', async () => {
      const user = await newUser();
      const first = await user.newSubscription('main', plans.monthly.id).create(tokens.card);
      await expectBillingError(
        user.newSubscription('main', plans.other.id).create(tokens.card, { requestKey: 'other' }),
        'subscription_exists',
      );
      await first.cancelNow();
      const second = await user.newSubscription('main', plans.other.id).create(null, { requestKey: 'again' });
      expect(second.id).not.toBe(first.id);
      expect(second.plan).toBe(plans.other.id);
      expect(await (await reload(user)).subscribed('main', plans.other.id)).toBe(true);
      expect(await localRows(user)).toHaveLength(2);
    });

    it('the database refuses a second live row for the same user and name', async () => {
      const user = await newUser();
      const row = {
        user_id: user.id,
        billable_id: user.id,
        name: 'main',
        quantity: 1,
        created_at: '2026-01-01T00:00:00.000Z',
        updated_at: '2026-01-01T00:00:00.000Z',
      };
      const db = ctx.t.app.db;
      await db
        .insertInto('subscriptions')
        .values({ ...row, ends_at: '2026-01-02T00:00:00.000Z' })
        .execute();
      await db.insertInto('subscriptions').values(row).execute();
      await expect(db.insertInto('subscriptions').values(row).execute()).rejects.toThrow();
    });
  });
}
