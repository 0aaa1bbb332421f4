import { describe, expect, it } from 'vitest';
import { PaymentGatewayKey, Payments } from '../../../src/billing/index.js';
import { incomplete } from '../incomplete-payment.js';
import type { ContractContext } from './context.js';

/**
 * A subscription attempt whose first payment waits for 3-D Secure, replaced by subscribing again
 * (with another card) while its confirmation page is still open: that page can no longer charge.
 */
export function replacedAttemptCases(ctx: ContractContext): void {
  const { harness, newUser, reload, localRows, paidAmounts } = ctx;
  const { plans, tokens } = harness;

  describe('a 3-D Secure attempt replaced by subscribing again', () => {
    it('completing the old confirmation page afterwards charges nothing and starts nothing', async () => {
      const user = await newUser();
      const first = await incomplete(
        user.newSubscription('main', plans.monthly.id).create(tokens.threeDSecure),
      );
      // The confirmation page, opened and left open.
      const opened = await user.findPayment(first.payment.id);
      expect(opened.status).toBe('requires_action');
      const [attempt] = await localRows(user);
      const column = ctx.t.app.container.make(PaymentGatewayKey).capabilities.columns.subscriptionId;

      const second = await user.newSubscription('main', plans.monthly.id).create(tokens.otherCard);
      expect(second.status).toBe('active');

      // Now the customer finishes the old page's challenge and comes back to it.
      const verification = await harness.authenticate(opened.actionUrl ?? '');
      const payments = ctx.t.app.container.make(Payments);
      const back = verification
        ? await payments.complete(user, first.payment.id, verification)
        : await user.findPayment(first.payment.id);
      expect(back.status).toBe('canceled');
      expect(back.failureMessage).toMatch(/subscribed again/);
      expect(back.actionUrl).toBeNull();
      await ctx.sandbox.settled();

      expect(await paidAmounts(await reload(user))).toEqual([harness.monthlyMinor]);
      const remote = await ctx.sandbox.subscription(attempt![column]!);
      expect(remote === null || /cancel/i.test(remote.status)).toBe(true);
      const rows = await localRows(user);
      expect(rows.map((r) => [r.id === attempt!.id, r.status]).sort()).toEqual([
        [false, 'active'],
        [true, 'canceled'],
      ]);
      expect(await (await reload(user)).subscribed('main')).toBe(true);
      // Reloading the page changes nothing.
      expect((await user.findPayment(first.payment.id)).status).toBe('canceled');
    });
  });
}
