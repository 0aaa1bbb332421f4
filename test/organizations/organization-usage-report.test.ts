import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authProvider } from '../../src/auth/provider.js';
import { UserModelKey, Users } from '../../src/auth/users.js';
import { billingProvider, closeBilling, PaymentGatewayKey } from '../../src/billing/index.js';
import { TestClock } from '../../src/core/clock.js';
import { mailProvider } from '../../src/mail/provider.js';
import { BillableOrganization, Organizations, organizationsProvider } from '../../src/organizations/index.js';
import { UsageMeter, UsageReporter } from '../../src/plans/index.js';
import { plansProvider } from '../../src/plans/provider.js';
import { braintreeHarness } from '../billing/braintree-harness.js';
import { DAY_MS, TestUser } from '../billing/contract/context.js';
import type { EditionSandbox } from '../billing/harness.js';
import { stripeHarness } from '../billing/stripe-harness.js';
import { createTestApp, type TestApp } from '../support/app.js';
import { acrossEngines } from '../support/engines.js';

const METERED = { id: 'metered-calls', name: 'API calls', unitMinor: 2 };

describe.each(acrossEngines([stripeHarness, braintreeHarness].map((harness) => ({ harness }))))(
  "an organization's metered usage on the $harness.edition sandbox ($engine)",
  ({ engine, harness }) => {
    const clock = new TestClock(new Date('2026-01-15T12:00:00Z'));
    let sandbox: EditionSandbox;
    let t: TestApp;
    let seq = 0;

    beforeAll(async () => {
      const catalog = { plans: [harness.plans.monthly, harness.plans.other], coupons: [] };
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
            },
          },
        },
        providers: [
          authProvider(),
          mailProvider(),
          billingProvider(),
          plansProvider(),
          organizationsProvider(),
        ],
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
    const user = (name: string) => {
      seq++;
      return t.app.container.make(Users).create<TestUser>({
        name,
        email: `${name}${seq}@example.com`,
        password: 'x'.repeat(12),
      });
    };

    /** An organization of two members, subscribed to the metered plan; its customer and subscription ids. */
    const subscribedOrganization = async () => {
      const [ada, bob] = [await user('ada'), await user('bob')];
      const organizations = t.app.container.make(Organizations);
      const { id } = await organizations.create(ada.id, `Acme ${seq}`);
      await organizations.addMember(id, bob.id, 'member', ada.id);
      await t.app.db
        .updateTable('organizations')
        .set({ billing_email: `billing${seq}@example.com` })
        .where('id', '=', id)
        .execute();
      const row = () =>
        t.app.db.selectFrom('organizations').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
      const subscription = await new BillableOrganization(t.app.container, await row())
        .newSubscription('default', harness.plans.monthly.id)
        .create(harness.tokens.card);
      const customerId = (await row())[gateway().capabilities.columns.customerId]!;
      return { id, ada, bob, customerId, subscriptionId: subscription.providerId };
    };

    /** Calls as the guard's meter counts them (per member and credential, for the organization or not), then one flush. */
    const use = async (
      userId: number,
      organizationId: number | null,
      credentialId: string,
      units: number,
    ) => {
      const meter = t.app.container.make(UsageMeter);
      meter.record(
        {
          day: clock.now().toISOString().slice(0, 10),
          userId: String(userId),
          organizationId: organizationId === null ? '' : String(organizationId),
          clientId: organizationId === null ? 'personal-client' : '',
          credentialKind: organizationId === null ? 'personal' : 'api_key',
          credentialId,
          route: 'api.orders.index',
          meter: 'calls',
        },
        units,
      );
      await meter.flush();
    };

    const upcomingQuantity = async (customerId: string, subscriptionId: string) => {
      const invoice = await gateway().upcomingInvoice(customerId, subscriptionId);
      return invoice?.lines.find((l) => l.description.includes(METERED.name))?.quantity ?? 0;
    };

    it("reports every member's calls for the organization to its subscription once; their personal calls are not the organization's", async () => {
      const acme = await subscribedOrganization();
      await use(acme.ada.id, acme.id, 'ak_ada', 30);
      await use(acme.bob.id, acme.id, 'ak_bob', 12);
      await use(acme.bob.id, null, 'pat_bob', 500);
      clock.advance(DAY_MS);
      await use(acme.bob.id, acme.id, 'ak_bob', 8);

      const lines = await reporter().report();
      const ours = lines.filter((l) => l.owner.type === 'organization' && l.owner.id === acme.id);
      expect(ours).toHaveLength(1);
      expect(ours[0]).toMatchObject({
        userId: null,
        plan: 'metered',
        total: 50,
        sent: 50,
        status: 'reported',
      });
      // Bob has no subscription of his own: his personal calls are reported to nobody.
      expect(lines.some((l) => l.owner.type === 'user' && l.owner.id === acme.bob.id)).toBe(false);
      expect(await upcomingQuantity(acme.customerId, acme.subscriptionId)).toBe(50);

      const again = await reporter().report({ organizationId: acme.id });
      expect(again[0]).toMatchObject({ status: 'up_to_date', total: 50, sent: 0 });
      await use(acme.ada.id, acme.id, 'ak_ada', 7);
      const both = await Promise.all([reporter().report(), reporter().report()]);
      const sent = both.flatMap((run) =>
        run.filter((l) => l.owner.type === 'organization' && l.owner.id === acme.id).map((l) => l.sent),
      );
      expect(sent.sort((a, b) => a - b)).toEqual([0, 7]);
      expect(await upcomingQuantity(acme.customerId, acme.subscriptionId)).toBe(57);
    });

    it('an organization and a user with the same id are reported apart, each to its own subscription', async () => {
      const acme = await subscribedOrganization();
      // The user whose id is the organization's id, subscribed on their own.
      const twin = (await t.app.container.make(Users).find<TestUser>(acme.id))!;
      const own = await twin.newSubscription('default', harness.plans.monthly.id).create(harness.tokens.card);
      const fresh = (await t.app.container.make(Users).find<TestUser>(twin.id))!;
      const twinCustomer = fresh[gateway().capabilities.columns.customerId]!;
      await use(twin.id, null, 'pat_twin', 4);
      await use(acme.ada.id, acme.id, 'ak_ada', 9);
      const lines = await reporter().report();
      expect(lines.find((l) => l.owner.type === 'user' && l.owner.id === twin.id)).toMatchObject({ sent: 4 });
      expect(lines.find((l) => l.owner.type === 'organization' && l.owner.id === acme.id)).toMatchObject({
        sent: 9,
      });
      expect(await upcomingQuantity(twinCustomer, own.providerId)).toBe(4);
      expect(await upcomingQuantity(acme.customerId, acme.subscriptionId)).toBe(9);
    });
  },
);
