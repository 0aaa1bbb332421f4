import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Users } from '../../../src/auth/users.js';
import { PaymentGatewayKey } from '../../../src/billing/index.js';
import { TestClock } from '../../../src/core/clock.js';
import type { RunningServer } from '../../../src/kernel/server.js';
import type { TestApp } from '../../support/app.js';
import { startBillingApp, stopBillingApp } from '../billing-app.js';
import type { EditionHarness, EditionSandbox } from '../harness.js';
import { expectBillingError, type TestUser } from './context.js';

// KD 7.790 a month, in fils (the minor unit, a thousandth) as both editions' catalogs take numbers.
const dinar = { id: 'dinar-kwd', name: 'Dinar', amount: 7790, interval: 'month' as const };
const catalog = { plans: [dinar], coupons: [] };

/**
 * A three-decimal currency: what the provider charges is what the invoice shows (KD 7.790, not
 * KD 7.79 shown for 0.779 charged, nor 7.790 charged for 7.79 shown), and an amount the provider
 * cannot charge is refused before it is asked (Stripe: the last digit of fils must be 0).
 */
export function threeDecimalCases(harness: EditionHarness): void {
  describe('money in a three-decimal currency (KWD)', () => {
    const clock = new TestClock(new Date('2026-03-02T12:00:00Z'));
    let sandbox: EditionSandbox;
    let t: TestApp;
    let server: RunningServer;

    beforeAll(async () => {
      sandbox = await harness.startSandbox({ clock, ...catalog, currency: 'kwd' });
      ({ t, server } = await startBillingApp({
        harness,
        sandbox,
        clock,
        billing: { ...catalog, currency: 'kwd', currencySymbol: 'KD' },
        controller: harness.webhook.controller,
      }));
    });
    afterAll(() => stopBillingApp({ t, server }, sandbox));

    it('bills KD 7.790 and shows KD7.790; one-off amounts in fils, refused where the provider would', async () => {
      const user = await t.app.container.make(Users).create<TestUser>({
        name: 'Dinar',
        email: 'dinar@example.com',
        password: 'correct horse battery',
      });
      await user.newSubscription('main', dinar.id).create(harness.tokens.card);
      const [first] = await user.invoices();
      expect([first?.total(), first?.rawTotal()]).toEqual(['KD7.790', 7790]);
      expect(first?.subscriptionLines().map((l) => l.amount)).toEqual(['KD7.790']);

      const minor = harness.capabilities.amountUnit === 'minor';
      await user.charge(minor ? 1230 : 1.23);
      if (minor) await expectBillingError(user.charge(1235), 'invalid_amount');
      else await user.charge(1.235);
      await expectBillingError(user.charge(minor ? 12.5 : 1.2345), 'invalid_amount');

      const column = t.app.container.make(PaymentGatewayKey).capabilities.columns.customerId;
      const payments = await sandbox.payments(
        (await t.app.container.make(Users).find<TestUser>(user.id))![column]!,
      );
      const paid = payments.filter((p) => p.succeeded).map((p) => p.amount);
      expect(paid.sort((a, b) => a - b)).toEqual(minor ? [1230, 7790] : [1230, 1235, 7790]);
    });
  });
}
