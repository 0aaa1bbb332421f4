import { afterAll, afterEach, beforeAll, describe } from 'vitest';
import { Users } from '../../src/auth/users.js';
import { PaymentGatewayKey, type WebhookEvent } from '../../src/billing/index.js';
import { handlerName } from '../../src/billing/webhooks/webhook-controller.js';
import { TestClock } from '../../src/core/clock.js';
import type { RunningServer } from '../../src/kernel/server.js';
import type { TestApp } from '../support/app.js';
import type { Engine } from '../support/engines.js';
import { startBillingApp, stopBillingApp } from './billing-app.js';
import { concurrentChangeCases } from './contract/concurrent-changes.js';
import { type ContractContext, expectBillingError, TestUser } from './contract/context.js';
import { couponProrationCases } from './contract/coupon-proration.js';
import { creationCases } from './contract/creation.js';
import { declinedChangeCases } from './contract/declined-changes.js';
import { doubleSubmitCases } from './contract/double-submit.js';
import { currencyAndHistoryCases } from './contract/history.js';
import { lifecycleCases } from './contract/lifecycle.js';
import { moneyCases } from './contract/money.js';
import { reconcileCases } from './contract/reconcile.js';
import { replacedAttemptCases } from './contract/replaced-attempt.js';
import { statusCases } from './contract/status.js';
import { syncCases } from './contract/sync.js';
import { threeDecimalCases } from './contract/three-decimal.js';
import { webhookCases } from './contract/webhooks.js';
import { type EditionHarness, type EditionSandbox, reportSeed } from './harness.js';

const START = new Date('2026-01-15T12:00:00Z');

/** The `billing.seller` slice the contract's PDFs carry. */
export const SELLER = {
  name: 'Tollgate Inc.',
  address: ['1 Market Street', 'San Francisco, CA 94105'],
  taxId: 'VAT: US-123456789',
  email: 'billing@tollgate.test',
};

/**
 * The billing contract every edition meets: the spec's operations and every row of its state
 * table, through the real adapter, the official SDK and the edition's sandbox over HTTP, on the
 * database engine given. An edition runs it with its harness on each engine:
 * `for (const engine of ENGINES) billingContract(stripeHarness, engine)`.
 */
export function billingContract(harness: EditionHarness, engine: Engine): void {
  const webhooks = { handled: [] as string[], failNext: false };

  // Counts runs of the "paid" handler per event id, and can be told to fail once.
  class TestWebhooks extends harness.webhook.controller {}
  Object.defineProperty(TestWebhooks.prototype, handlerName(harness.webhook.paidEvent), {
    value: async (_payload: unknown, event: WebhookEvent) => {
      if (webhooks.failNext) {
        webhooks.failNext = false;
        throw new Error('handler failed on purpose');
      }
      webhooks.handled.push(event.id);
    },
  });

  describe(`billing contract: ${harness.edition} edition on ${engine}`, () => {
    const clock = new TestClock(START);
    let sandbox: EditionSandbox;
    let t: TestApp;
    let server: RunningServer;
    let seq = 0;

    beforeAll(async () => {
      const { plans } = harness;
      const catalog = { plans: [plans.monthly, plans.other, plans.yearly], coupons: [harness.coupon] };
      sandbox = await harness.startSandbox({ clock, ...catalog, currency: 'usd' });
      ({ t, server } = await startBillingApp({
        engine,
        harness,
        sandbox,
        clock,
        billing: { ...catalog, currency: 'usd', currencySymbol: '$', seller: SELLER },
        controller: TestWebhooks,
      }));
    });

    afterAll(() => stopBillingApp({ t, server }, sandbox));

    afterEach(async ({ task }) => {
      if (task.result?.state === 'fail') reportSeed(harness.edition, sandbox);
      // What one test caused is delivered before the next starts.
      await sandbox?.settled();
      TestUser.tax = 0;
      webhooks.failNext = false;
    });

    const customerId = (user: TestUser) =>
      user[t.app.container.make(PaymentGatewayKey).capabilities.columns.customerId]!;

    const ctx: ContractContext = {
      harness,
      clock,
      webhooks,
      get sandbox() {
        return sandbox;
      },
      get t() {
        return t;
      },
      get serverUrl() {
        return server.url;
      },
      setTax: (percentage) => {
        TestUser.tax = percentage;
      },
      newUser: async (attributes = {}) => {
        seq++;
        const users = t.app.container.make(Users);
        const user = await users.create<TestUser>({
          name: `Customer ${seq}`,
          email: `customer${seq}@example.com`,
          password: 'correct horse battery',
        });
        if (attributes.trial_ends_at) await users.update(user, { trial_ends_at: attributes.trial_ends_at });
        return user;
      },
      reload: async (user) => (await t.app.container.make(Users).find<TestUser>(user.id))!,
      customerId,
      localRows: (user) =>
        t.app.db.selectFrom('subscriptions').selectAll().where('user_id', '=', user.id).execute(),
      expectBillingError,
      paidAmounts: async (user) =>
        (await sandbox.payments(customerId(user))).filter((p) => p.succeeded).map((p) => p.amount),
    };

    creationCases(ctx);
    lifecycleCases(ctx);
    declinedChangeCases(ctx);
    moneyCases(ctx);
    couponProrationCases(ctx);
    webhookCases(ctx);
    doubleSubmitCases(ctx);
    concurrentChangeCases(ctx);
    replacedAttemptCases(ctx);
    statusCases(ctx);
    syncCases(ctx);
    reconcileCases(ctx);
    currencyAndHistoryCases(harness);
    threeDecimalCases(harness);
  });
}
