import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Users } from '../../src/auth/users.js';
import { TestClock } from '../../src/core/clock.js';
import type { RunningServer } from '../../src/kernel/server.js';
import type { TestApp } from '../support/app.js';
import { ENGINES } from '../support/engines.js';
import { startBillingApp, stopBillingApp } from './billing-app.js';
import { braintreeHarness } from './braintree-harness.js';
import type { TestUser } from './contract/context.js';
import type { EditionSandbox } from './harness.js';
import { stripeHarness } from './stripe-harness.js';

// billing.keepPastDueSubscribed: false — the first failed renewal, reported by webhook, locks out.
for (const engine of ENGINES) {
  for (const harness of [stripeHarness, braintreeHarness]) {
    describe(`keepPastDueSubscribed: false (${harness.edition} on ${engine})`, () => {
      const clock = new TestClock(new Date('2026-01-15T12:00:00Z'));
      const { plans } = harness;
      let sandbox: EditionSandbox;
      let t: TestApp;
      let server: RunningServer;

      beforeAll(async () => {
        sandbox = await harness.startSandbox({ clock, plans: [plans.monthly], coupons: [], currency: 'usd' });
        ({ t, server } = await startBillingApp({
          engine,
          harness,
          sandbox,
          clock,
          billing: { plans: [plans.monthly], keepPastDueSubscribed: false },
          controller: harness.webhook.controller,
        }));
      });

      afterAll(() => stopBillingApp({ t, server }, sandbox));

      it('past_due after a failed renewal → not subscribed; the dates alone would still say subscribed', async () => {
        const user = await t.app.container.make(Users).create<TestUser>({
          name: 'Late Payer',
          email: 'late@example.com',
          password: 'correct horse battery',
        });
        await user.newSubscription('main', plans.monthly.id).trialDays(2).create(harness.tokens.failsLater);
        expect(await user.subscribed('main')).toBe(true);
        await sandbox.advanceDays(3);
        const sub = (await user.subscription('main'))!;
        expect(sub.status).toBe('past_due');
        expect(sub.active() && !sub.cancelled()).toBe(true);
        expect(sub.valid()).toBe(false);
        expect(await user.subscribed('main')).toBe(false);
      });
    });
  }
}
