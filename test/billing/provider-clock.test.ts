import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Users } from '../../src/auth/users.js';
import { PaymentGatewayKey } from '../../src/billing/index.js';
import { TestClock } from '../../src/core/clock.js';
import type { RunningServer } from '../../src/kernel/server.js';
import type { TestApp } from '../support/app.js';
import { ENGINES } from '../support/engines.js';
import { startBillingApp, stopBillingApp } from './billing-app.js';
import { braintreeHarness } from './braintree-harness.js';
import type { TestUser } from './contract/context.js';
import type { EditionHarness, EditionSandbox } from './harness.js';
import { stripeHarness } from './stripe-harness.js';

const APP_TIME = new Date('2026-03-02T12:00:00Z');
const HOUR_MS = 3_600_000;

/**
 * Provider state is ordered by the provider's own times (Stripe's event `created` and its answers'
 * `Date`; Braintree's notification timestamp and `updatedAt`), never by the app's clock: here the
 * provider's clock is an hour off the app's, as a standalone sandbox's or a skewed host's can be.
 */
for (const engine of ENGINES) {
  for (const harness of [stripeHarness, braintreeHarness] as EditionHarness[]) {
    for (const skew of [-HOUR_MS, HOUR_MS]) {
      const label = skew < 0 ? 'an hour behind' : 'an hour ahead of';
      describe(`${harness.edition}: the provider's clock ${label} the app's (${engine})`, () => {
        const appClock = new TestClock(APP_TIME);
        const providerClock = new TestClock(APP_TIME.getTime() + skew);
        const { plans, tokens } = harness;
        let sandbox: EditionSandbox;
        let t: TestApp;
        let server: RunningServer;
        let n = 0;

        beforeAll(async () => {
          const catalog = { plans: [plans.monthly, plans.other], coupons: [] };
          sandbox = await harness.startSandbox({ clock: providerClock, ...catalog, currency: 'usd' });
          ({ t, server } = await startBillingApp({
            engine,
            harness,
            sandbox,
            clock: appClock,
            billing: { plans: catalog.plans },
            controller: harness.webhook.controller,
          }));
        });
        afterAll(() => stopBillingApp({ t, server }, sandbox));

        const newUser = () =>
          t.app.container.make(Users).create<TestUser>({
            name: 'Skewed',
            email: `skew${skew > 0 ? 'a' : 'b'}${++n}@example.com`,
            password: 'correct horse battery',
          });
        /** A minute passes, on both clocks. */
        const aMinute = () => {
          appClock.advance(60_000);
          providerClock.advance(60_000);
        };

        it('a change made at the provider after one made here is applied', async () => {
          const user = await newUser();
          const sub = await user.newSubscription('main', plans.monthly.id).create(tokens.card);
          await sandbox.settled();
          aMinute();
          await sub.swap(plans.other.id);
          aMinute();
          // Ended at the provider itself (its dashboard), after the swap made here.
          await t.app.container
            .make(PaymentGatewayKey)
            .cancelSubscription(sub.providerId, { atPeriodEnd: false });
          await sandbox.settled();
          const row = (await user.subscription('main'))!;
          expect(row.status).toBe('canceled');
          expect(row.ended()).toBe(true);
          expect(await user.subscribed('main')).toBe(false);
        });
      });
    }
  }
}
