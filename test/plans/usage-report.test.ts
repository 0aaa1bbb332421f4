import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authProvider } from '../../src/auth/provider.js';
import { UserModelKey, Users } from '../../src/auth/users.js';
import type { BillingLock } from '../../src/billing/billing-lock.js';
import { BillableStores, billingProvider, closeBilling, PaymentGatewayKey } from '../../src/billing/index.js';
import { SubscriptionRepository } from '../../src/billing/subscriptions/subscription-repository.js';
import { TestClock } from '../../src/core/clock.js';
import { UsageLedger } from '../../src/plans/metering/usage-ledger.js';
import { UsageMeter } from '../../src/plans/metering/usage-meter.js';
import { PlanResolver } from '../../src/plans/plan-resolver.js';
import { Plans, plansProvider } from '../../src/plans/provider.js';
import { ReportedUsageStore, type ReportKey } from '../../src/plans/reporting/reported-usage.js';
import { UsageReporter } from '../../src/plans/reporting/usage-reporter.js';
import { reportUsageOnce } from '../../src/plans/reporting/usage-schedule.js';
import { braintreeHarness } from '../billing/braintree-harness.js';
import { DAY_MS, TestUser } from '../billing/contract/context.js';
import type { EditionSandbox } from '../billing/harness.js';
import { stripeHarness } from '../billing/stripe-harness.js';
import { createTestApp, type TestApp } from '../support/app.js';
import { deferred } from '../support/deferred.js';
import { acrossEngines } from '../support/engines.js';

const METERED = { id: 'metered-calls', name: 'API calls', unitMinor: 2 };

describe.each(acrossEngines([stripeHarness, braintreeHarness].map((harness) => ({ harness }))))(
  'usage:report on the $harness.edition sandbox ($engine)',
  ({ engine, harness }) => {
    const clock = new TestClock(new Date('2026-01-15T12:00:00Z'));
    let sandbox: EditionSandbox;
    let t: TestApp;
    let seq = 0;

    beforeAll(async () => {
      const catalog = {
        plans: [harness.plans.monthly, harness.plans.other, harness.plans.yearly],
        coupons: [],
      };
      sandbox = await harness.startSandbox({ clock, ...catalog, currency: 'usd', metered: METERED });
      t = await createTestApp({
        engine,
        clock,
        config: {
          billing: { ...sandbox.config, ...catalog, currency: 'usd' },
          plans: {
            definitions: {
              free: {},
              metered: {
                billingPlans: [harness.plans.monthly.id],
                metered: { meter: 'calls', price: METERED.id },
              },
              flat: { billingPlans: [harness.plans.other.id] },
            },
          },
        },
        providers: [authProvider(), billingProvider(), plansProvider()],
        setup: (app) => void app.container.instance(UserModelKey, TestUser),
      });
    });

    afterAll(async () => {
      await closeBilling(t.app);
      await t.close();
      await sandbox.close();
    });

    const gateway = () => t.app.container.make(PaymentGatewayKey);
    const reporter = () => t.app.container.make(UsageReporter);

    const subscriber = async (plan = harness.plans.monthly.id) => {
      seq++;
      const user = await t.app.container.make(Users).create<TestUser>({
        name: `Metered ${seq}`,
        email: `metered${seq}@example.com`,
        password: 'x'.repeat(12),
      });
      const subscription = await user.newSubscription('default', plan).create(harness.tokens.card);
      const fresh = (await t.app.container.make(Users).find<TestUser>(user.id))!;
      const customerId = fresh[gateway().capabilities.columns.customerId]!;
      return { user: fresh, customerId, subscriptionId: subscription.providerId };
    };

    /** Calls as the guard's meter counts them: in memory, then one flush. */
    const use = async (userId: number, units: number, day = clock.now()) => {
      const meter = t.app.container.make(UsageMeter);
      const key = {
        day: day.toISOString().slice(0, 10),
        userId: String(userId),
        clientId: 'client-1',
        credentialKind: 'personal' as const,
        credentialId: 'token-1',
        route: 'api.orders.index',
      };
      meter.record({ ...key, meter: 'calls' }, units);
      meter.record({ ...key, meter: 'emails' }, 1000);
      await meter.flush();
    };

    /** The metered line's quantity on the next invoice the provider would bill. */
    const upcomingQuantity = async (customerId: string, subscriptionId: string) => {
      const invoice = await gateway().upcomingInvoice(customerId, subscriptionId);
      const line = invoice?.lines.find((l) => l.description.includes(METERED.name));
      return line?.quantity ?? 0;
    };

    it('puts the period’s calls on the next invoice; reporting again, or twice at once, does not double them', async () => {
      const { user, customerId, subscriptionId } = await subscriber();
      await use(user.id, 120);
      clock.advance(5 * DAY_MS);
      await use(user.id, 30);

      const [line] = await reporter().report({ userId: user.id });
      expect(line).toMatchObject({ userId: user.id, plan: 'metered', meter: 'calls', total: 150, sent: 150 });
      expect(line!.status).toBe('reported');
      expect(await upcomingQuantity(customerId, subscriptionId)).toBe(150);

      const again = await reporter().report({ userId: user.id });
      expect(again[0]).toMatchObject({ status: 'up_to_date', total: 150, sent: 0 });
      expect(await upcomingQuantity(customerId, subscriptionId)).toBe(150);

      await use(user.id, 25);
      const both = await Promise.all([
        reporter().report({ userId: user.id }),
        reporter().report({ userId: user.id }),
      ]);
      expect(both.map(([l]) => l!.sent).sort((a, b) => a - b)).toEqual([0, 25]);
      expect(await upcomingQuantity(customerId, subscriptionId)).toBe(175);
    });

    it('bills the ended period’s usage on the renewal, and the next period starts from zero', async () => {
      const { user, customerId, subscriptionId } = await subscriber();
      await use(user.id, 40);
      await reporter().report();
      await sandbox.advanceDays(31);
      await use(user.id, 9);
      const lines = await reporter().report();
      expect(lines.find((l) => l.userId === user.id)).toMatchObject({ total: 9, sent: 9 });

      const invoices = await gateway().invoices(customerId, { includePending: true });
      const renewal = invoices[0]!;
      const usage = renewal.lines.find((l) => l.description.includes(METERED.name));
      expect(usage).toMatchObject({ quantity: 40, amount: 40 * METERED.unitMinor });
      expect(renewal.total).toBe(harness.monthlyMinor + 40 * METERED.unitMinor);
      expect(await upcomingQuantity(customerId, subscriptionId)).toBe(9);
    });

    it('a report whose answer was lost is sent again under the same identifier, counted once', async () => {
      const { user, customerId, subscriptionId } = await subscriber();
      await use(user.id, 60);
      const port = gateway();
      const original = port.reportUsage!.bind(port);
      const identifiers: string[] = [];
      port.reportUsage = async (report) => {
        identifiers.push(report.identifier);
        await original(report);
        throw new Error('connection reset');
      };
      try {
        const [lost] = await reporter().report({ userId: user.id });
        expect(lost).toMatchObject({ status: 'failed', reason: 'connection reset' });
      } finally {
        delete port.reportUsage;
      }
      clock.advance(DAY_MS);
      await use(user.id, 5);
      const sent: string[] = [];
      port.reportUsage = async (report) => {
        sent.push(`${report.identifier}:${report.increment}`);
        await original(report);
      };
      try {
        const [line] = await reporter().report({ userId: user.id });
        expect(line).toMatchObject({ status: 'reported', total: 65 });
      } finally {
        delete port.reportUsage;
      }
      // The pending 60 again, same identifier, then only the 5 that came after.
      expect(sent).toEqual([`${identifiers[0]}:60`, expect.stringMatching(/-65:5$/)]);
      expect(await upcomingQuantity(customerId, subscriptionId)).toBe(65);
    });

    it('the scheduled report: of two instances at once one runs it, once per interval', async () => {
      const { user, customerId, subscriptionId } = await subscriber();
      await use(user.id, 11);
      const hourly = { everyMs: 3_600_000 };
      try {
        const runs = await Promise.all([reportUsageOnce(t.app, hourly), reportUsageOnce(t.app, hourly)]);
        expect(runs.filter((r) => r === null)).toHaveLength(1);
        const ran = runs.find((r) => r !== null)!;
        expect(ran.find((l) => l.userId === user.id)).toMatchObject({ status: 'reported', sent: 11 });
        expect(await upcomingQuantity(customerId, subscriptionId)).toBe(11);
        // Within the interval no instance reports again: the next calls wait for the next interval.
        await use(user.id, 4);
        expect(await reportUsageOnce(t.app, hourly)).toBeNull();
        expect(await upcomingQuantity(customerId, subscriptionId)).toBe(11);
      } finally {
        await t.app.db.deleteFrom('job_runs').execute();
      }
    });

    it('a run that stalled past its lock’s lease sends nothing after another run moved the record on', async () => {
      const { user, customerId, subscriptionId } = await subscriber();
      await use(user.id, 30);
      const { container, db, clock: appClock } = t.app;
      const hasRead = deferred();
      const stall = deferred();
      /** The record as the stalled run read it, before the other run reported. */
      class StallingStore extends ReportedUsageStore {
        override async read(key: ReportKey) {
          const state = await super.read(key);
          hasRead.resolve();
          await stall.promise;
          return state;
        }
      }
      // As if each run held the user's lock: the stalled one's lease lapsed and the other took it.
      const lapsed = {
        forOwner: (_owner: unknown, fn: () => Promise<unknown>) => fn(),
      } as unknown as BillingLock;
      const run = (store: ReportedUsageStore) =>
        new UsageReporter({
          gateway: gateway(),
          catalog: container.make(Plans).catalog,
          resolver: container.make(PlanResolver),
          subscriptions: container.make(SubscriptionRepository),
          owners: container.make(BillableStores),
          lock: lapsed,
          store,
          clock: appClock,
          subscription: 'default',
          ledger: container.make(UsageLedger),
        }).report({ userId: user.id });

      const stalled = run(new StallingStore(db, appClock));
      await hasRead.promise;
      await use(user.id, 5);
      const [other] = await run(new ReportedUsageStore(db, appClock));
      expect(other).toMatchObject({ status: 'reported', total: 35, sent: 35 });
      stall.resolve();
      const [late] = await stalled;
      // It read 30 with nothing reported: sending 30 more now would bill 65.
      expect(late).toMatchObject({ status: 'failed' });
      expect(await upcomingQuantity(customerId, subscriptionId)).toBe(35);
      expect((await reporter().report({ userId: user.id }))[0]).toMatchObject({
        status: 'up_to_date',
        total: 35,
      });
    });

    it('skips a user whose plan has no metered price, and reports nothing for them', async () => {
      const { user, customerId, subscriptionId } = await subscriber(harness.plans.other.id);
      await use(user.id, 500);
      const all = await reporter().report();
      expect(all.some((l) => l.userId === user.id)).toBe(false);
      const [only] = await reporter().report({ userId: user.id });
      expect(only).toMatchObject({ status: 'skipped', plan: 'flat', sent: 0 });
      expect(only!.reason).toMatch(/metered/);
      expect(await upcomingQuantity(customerId, subscriptionId)).toBe(0);
    });
  },
);
