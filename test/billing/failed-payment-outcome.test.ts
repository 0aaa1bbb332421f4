import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Users } from '../../src/auth/users.js';
import { TestClock } from '../../src/core/clock.js';
import type { RunningServer } from '../../src/kernel/server.js';
import type { TestApp } from '../support/app.js';
import { ENGINES } from '../support/engines.js';
import { startBillingApp, stopBillingApp } from './billing-app.js';
import { braintreeHarness } from './braintree-harness.js';
import type { TestUser } from './contract/context.js';
import { type EditionSandbox, type FailedPaymentOutcome, reportSeed } from './harness.js';
import { stripeHarness } from './stripe-harness.js';

/** The local row's status and access once the provider has given up retrying a renewal. */
const EXPECTED: Record<FailedPaymentOutcome, { status: string; kept: boolean }> = {
  cancel: { status: 'canceled', kept: false },
  // `unpaid` never counts as subscribed, whatever keepPastDueSubscribed says.
  unpaid: { status: 'unpaid', kept: false },
  // `past_due` follows billing.keepPastDueSubscribed.
  past_due: { status: 'past_due', kept: true },
};

/** The subscription's status at the provider, in its own words. */
const PROVIDER_STATUS: Record<string, Partial<Record<FailedPaymentOutcome, string>>> = {
  stripe: { cancel: 'canceled', unpaid: 'unpaid', past_due: 'past_due' },
  braintree: { cancel: 'Canceled', past_due: 'Past Due' },
};

// The provider's setting for a subscription whose every retry failed, under realistic delivery.
for (const engine of ENGINES) {
  for (const harness of [stripeHarness, braintreeHarness]) {
    for (const outcome of harness.failedPaymentOutcomes) {
      for (const keepPastDueSubscribed of [true, false]) {
        describe(`after the last failed retry: ${outcome}, keepPastDueSubscribed ${keepPastDueSubscribed} (${harness.edition} on ${engine})`, () => {
          const clock = new TestClock(new Date('2026-01-15T12:00:00Z'));
          const { plans } = harness;
          let sandbox: EditionSandbox;
          let t: TestApp;
          let server: RunningServer;

          beforeAll(async () => {
            sandbox = await harness.startSandbox({
              clock,
              plans: [plans.monthly],
              coupons: [],
              currency: 'usd',
              failedPaymentOutcome: outcome,
            });
            ({ t, server } = await startBillingApp({
              engine,
              harness,
              sandbox,
              clock,
              billing: { plans: [plans.monthly], keepPastDueSubscribed },
              controller: harness.webhook.controller,
            }));
          });
          afterAll(() => stopBillingApp({ t, server }, sandbox));
          afterEach(({ task }) => {
            if (task.result?.state === 'fail') reportSeed(harness.edition, sandbox);
          });

          it('the local status follows the provider, and access follows the status rules', async () => {
            const user = await t.app.container.make(Users).create<TestUser>({
              name: 'Late Payer',
              email: 'late@example.com',
              password: 'correct horse battery',
            });
            await user
              .newSubscription('main', plans.monthly.id)
              .trialDays(2)
              .create(harness.tokens.failsLater);
            await sandbox.advanceDays(3);
            expect((await user.subscription('main'))!.status).toBe('past_due');
            expect(await user.subscribed('main')).toBe(keepPastDueSubscribed);
            for (let day = 0; day < harness.retryWindowDays; day++) await sandbox.advanceDays(1);

            const expected = EXPECTED[outcome];
            const sub = (await user.subscription('main'))!;
            expect(sub.status).toBe(expected.status);
            expect((await sandbox.subscription(sub.providerId))?.status).toBe(
              PROVIDER_STATUS[harness.edition]![outcome],
            );
            const subscribed = expected.kept && keepPastDueSubscribed;
            expect(await user.subscribed('main')).toBe(subscribed);
            expect(sub.valid()).toBe(subscribed);
            expect(sub.ended()).toBe(outcome === 'cancel');
          });
        });
      }
    }
  }
}
