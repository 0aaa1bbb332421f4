import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authProvider } from '../../src/auth/provider.js';
import { UserModelKey, Users } from '../../src/auth/users.js';
import { billingProvider, closeBilling } from '../../src/billing/index.js';
import { TestClock } from '../../src/core/clock.js';
import { listen, type RunningServer } from '../../src/kernel/server.js';
import { createTestApp, type TestApp } from '../support/app.js';
import { braintreeHarness } from './braintree-harness.js';
import { TestUser } from './contract/context.js';
import type { EditionSandbox } from './harness.js';
import { stripeHarness } from './stripe-harness.js';

const engine = process.env.TEST_DATABASE_URL ? 'postgres' : 'sqlite';

// billing.keepPastDueSubscribed: false — the first failed renewal, reported by webhook, locks out.
for (const harness of [stripeHarness, braintreeHarness]) {
  describe(`keepPastDueSubscribed: false (${harness.edition} on ${engine})`, () => {
    const clock = new TestClock(new Date('2026-01-15T12:00:00Z'));
    const { plans } = harness;
    let sandbox: EditionSandbox;
    let t: TestApp;
    let server: RunningServer;

    beforeAll(async () => {
      sandbox = await harness.startSandbox({ clock, plans: [plans.monthly], coupons: [], currency: 'usd' });
      t = await createTestApp({
        clock,
        config: { billing: { ...sandbox.config, plans: [plans.monthly], keepPastDueSubscribed: false } },
        providers: [authProvider(), billingProvider()],
        setup: (app) => {
          app.container.instance(UserModelKey, TestUser);
          app.router.post(harness.webhook.path, [harness.webhook.controller, 'handle']);
        },
      });
      server = await listen(t.app, '127.0.0.1', 0);
      sandbox.setWebhook(`${server.url}${harness.webhook.path}`);
    });

    afterAll(async () => {
      await server?.close();
      if (t) await closeBilling(t.app);
      await t?.close();
      await sandbox?.close();
    });

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
