import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { Users } from '../../src/auth/users.js';
import { createBraintreeGateway } from '../../src/billing/gateway/braintree/client.js';
import { billingProvider, closeBilling } from '../../src/billing/index.js';
import { TestClock } from '../../src/core/clock.js';
import { mailProvider } from '../../src/mail/provider.js';
import { PersonalAccessTokens } from '../../src/oauth/index.js';
import { OrganizationBilling } from '../../src/organizations/billing/organization-billing.js';
import { SeatSync } from '../../src/organizations/billing/seat-sync.js';
import { Organizations } from '../../src/organizations/organizations.js';
import { organizationsProvider } from '../../src/organizations/provider.js';
import { braintreeHarness } from '../billing/braintree-harness.js';
import type { EditionHarness, EditionSandbox } from '../billing/harness.js';
import { stripeHarness } from '../billing/stripe-harness.js';
import { type Instances, requireRedis, twoInstances } from '../protection/instances.js';
import { ENGINES } from '../support/engines.js';

const redisUrl = process.env.REDIS_URL;

/**
 * Two instances of the service on one PostgreSQL database and one Redis, as behind a load
 * balancer: what one instance ends for a member, the other refuses at once.
 */
/** Two instances need a database both reach: PostgreSQL (SQLite is one process's file). */
const SHARED_ENGINES = ENGINES.filter((engine) => engine === 'postgres');

describe.runIf(redisUrl).each(SHARED_ENGINES)(
  'organization membership across two instances (%s, Redis)',
  (engine) => {
    let t: Instances | undefined;
    afterEach(async () => {
      await t?.close();
      t = undefined;
    });

    it("a member removed on instance A: their token for the organization is refused by instance B, which had it cached as verified; the organization's other tokens still work there", async () => {
      await requireRedis(redisUrl!);
      const channel = `tollgate-test:${randomUUID()}`;
      t = await twoInstances(
        engine,
        { redis: { url: redisUrl!, keyPrefix: `test-${randomUUID()}:` } },
        { a: { redisChannel: channel }, b: { redisChannel: channel } },
        () => [mailProvider(), organizationsProvider()],
      );
      const organizations = t.a.container.make(Organizations);
      const bob = await t.a.container
        .make(Users)
        .create({ name: 'Bob', email: 'bob@example.com', password: 'correct horse battery' });
      const acme = (await organizations.create(t.ada.id, 'Acme')).id;
      await organizations.addMember(acme, bob.id, 'member', t.ada.id);
      const tokens = t.a.container.make(PersonalAccessTokens);
      const bobs = await tokens.create(bob.id, 'bob for acme', [], { organizationId: acme });
      const adas = await tokens.create(t.ada.id, 'ada for acme', [], { organizationId: acme });
      for (const { accessToken } of [bobs, adas]) {
        // Twice on B: the second answer comes from B's cache of verified tokens.
        expect((await t.call(t.b, '/api/user', accessToken)).status).toBe(200);
        expect((await t.call(t.b, '/api/user', accessToken)).status).toBe(200);
      }

      await organizations.remove(t.ada.id, acme, bob.id);
      expect((await t.call(t.a, '/api/user', bobs.accessToken)).status).toBe(401);
      const start = performance.now();
      while ((await t.call(t.b, '/api/user', bobs.accessToken)).status !== 401) {
        expect(performance.now() - start, 'instance B still accepts the removed member’s token').toBeLessThan(
          1000,
        );
        await new Promise((r) => setTimeout(r, 10));
      }
      expect((await t.call(t.b, '/api/user', adas.accessToken)).status).toBe(200);
    });
  },
);

const SEAT = { id: 'seat', name: 'Seat', unitMinor: 2000 };

/** Seats billed at the provider, asked through its SDK: Stripe's quantity; Braintree's plan (one seat) plus the seat add-on. */
async function seatsAtProvider(sandbox: EditionSandbox, id: string): Promise<number> {
  // The Stripe harness reads it with the stripe SDK; the Braintree harness would read its store.
  if (sandbox.config.edition === 'stripe') return (await sandbox.subscription(id))?.quantity ?? 0;
  const gateway = createBraintreeGateway(
    sandbox.config.braintree as Parameters<typeof createBraintreeGateway>[0],
  );
  const sub = await gateway.subscription.find(id);
  return 1 + (sub.addOns?.find((a) => a.id === SEAT.id)?.quantity ?? 0);
}

for (const harness of [stripeHarness, braintreeHarness] as EditionHarness[]) {
  describe.runIf(redisUrl).each(SHARED_ENGINES)(
    `per-seat billing across two instances (${harness.edition}, %s, Redis)`,
    (engine) => {
      let t: Instances | undefined;
      let sandbox: EditionSandbox | undefined;
      afterEach(async () => {
        if (t) await Promise.all([closeBilling(t.a), closeBilling(t.b)]);
        await t?.close();
        await sandbox?.close();
        t = undefined;
        sandbox = undefined;
      });

      it('members added on A and B at once: the seats at the provider equal the member count', async () => {
        await requireRedis(redisUrl!);
        const seatPlan = harness.plans.monthly;
        const plans = [seatPlan, harness.plans.other];
        sandbox = await harness.startSandbox({
          clock: new TestClock(new Date('2026-01-15T12:00:00Z')),
          plans,
          coupons: [],
          currency: 'usd',
          metered: SEAT,
        });
        t = await twoInstances(
          engine,
          {
            redis: { url: redisUrl!, keyPrefix: `test-${randomUUID()}:` },
            billing: { ...sandbox.config, plans },
          },
          {},
          () => [
            mailProvider(),
            billingProvider(),
            organizationsProvider({ seats: { plans: [seatPlan.id], addOn: SEAT.id } }),
          ],
        );
        const [onA, onB] = [t.a, t.b].map((app) => app.container.make(Organizations));
        const acme = (await onA!.create(t.ada.id, 'Acme')).id;
        const billing = t.a.container.make(OrganizationBilling);
        const organization = await billing.model(acme);
        await billing.updateDetails(organization, {
          billing_email: 'billing@acme.example',
          tax_id: '',
          billing_address: '',
        });
        await organization.newSubscription('default', seatPlan.id).create(harness.tokens.card);
        await t.a.container.make(SeatSync).sync(acme);
        const sub = await t.a.db
          .selectFrom('subscriptions')
          .selectAll()
          .where('billable_type', '=', 'organization')
          .where('billable_id', '=', acme)
          .executeTakeFirstOrThrow();
        const providerId = String(harness.edition === 'stripe' ? sub.stripe_id : sub.braintree_id);
        expect(await seatsAtProvider(sandbox, providerId)).toBe(1);

        const users = t.a.container.make(Users);
        const joiners = await Promise.all(
          Array.from({ length: 8 }, (_, i) =>
            users.create({ name: `M${i}`, email: `m${i}@example.com`, password: 'correct horse battery' }),
          ),
        );
        // Four joins on each instance, all at once: each syncs the seats after its own commit.
        await Promise.all(
          joiners.map((j, i) => (i % 2 === 0 ? onA! : onB!).addMember(acme, j.id, 'member', t!.ada.id)),
        );
        expect((await onA!.members(acme)).length).toBe(9);
        expect(await seatsAtProvider(sandbox, providerId)).toBe(9);
      }, 60_000);
    },
  );
}
