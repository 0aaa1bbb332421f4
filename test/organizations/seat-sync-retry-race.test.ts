import { afterEach, describe, expect, it } from 'vitest';
import { Users } from '../../src/auth/users.js';
import { billingProvider, closeBilling } from '../../src/billing/index.js';
import { mailProvider } from '../../src/mail/provider.js';
import { OrganizationBilling } from '../../src/organizations/billing/organization-billing.js';
import { SeatSync } from '../../src/organizations/billing/seat-sync.js';
import { Organizations } from '../../src/organizations/organizations.js';
import { organizationsProvider } from '../../src/organizations/provider.js';
import { braintreeHarness } from '../billing/braintree-harness.js';
import type { EditionHarness, EditionSandbox } from '../billing/harness.js';
import { stripeHarness } from '../billing/stripe-harness.js';
import type { FaultProxy } from '../faults/fault-proxy.js';
import { type Instances, twoInstances } from '../protection/instances.js';
import { ENGINES } from '../support/engines.js';
import { SEAT, startProxiedSeatSandbox } from './seat-sandbox.js';

/**
 * Two instances on one database retry the pending seat syncs at the same moment (two schedulers
 * whose intervals overlap, or a manual pass beside the scheduled one): the provider is asked once
 * per organization, not once per instance.
 */
for (const engine of ENGINES) {
  for (const harness of [stripeHarness, braintreeHarness] as EditionHarness[]) {
    describe(`seat sync retries on two instances at once (${harness.edition}, ${engine})`, () => {
      let t: Instances | undefined;
      let sandbox: EditionSandbox | undefined;
      let proxy: FaultProxy | undefined;
      afterEach(async () => {
        if (t) await Promise.all([closeBilling(t.a), closeBilling(t.b)]);
        await t?.close();
        await sandbox?.close();
        await proxy?.close();
      });

      it('each pending organization is sent to the provider once and ends with its true seat count', async () => {
        const started = await startProxiedSeatSandbox(harness);
        ({ sandbox, proxy } = started);
        const { seatPlan } = started;
        t = await twoInstances(engine, { billing: started.billing }, {}, () => [
          mailProvider(),
          billingProvider(),
          organizationsProvider({ seats: { plans: [seatPlan.id], addOn: SEAT.id } }),
        ]);
        const organizations = t.a.container.make(Organizations);
        const billing = t.a.container.make(OrganizationBilling);
        const users = t.a.container.make(Users);
        const subscriptions = new Map<number, string>();
        for (const name of ['Acme', 'Beta', 'Gamma']) {
          const id = (await organizations.create(t.ada.id, name)).id;
          const organization = await billing.model(id);
          await billing.updateDetails(organization, {
            billing_email: `billing@${name.toLowerCase()}.example`,
            tax_id: '',
            billing_address: '',
          });
          const sub = await organization.newSubscription('default', seatPlan.id).create(harness.tokens.card);
          subscriptions.set(id, sub.providerId);
        }

        // A join in each while the provider is down: each organization is left pending.
        proxy.hooks = { before: () => 'unavailable' };
        for (const id of subscriptions.keys()) {
          const joiner = await users.create({
            name: `J${id}`,
            email: `j${id}@example.com`,
            password: 'correct horse battery',
          });
          await organizations.addMember(id, joiner.id, 'member', t.ada.id);
        }
        const pending = () =>
          t!.a.db
            .selectFrom('organization_seat_syncs')
            .select('organization_id')
            .orderBy('organization_id')
            .execute();
        expect(await pending()).toHaveLength(3);

        // The provider is back; count what reaches it for each subscription.
        const writes = new Map<string, number>();
        proxy.hooks = {
          before: ({ method, path }) => {
            if (method === 'GET') return undefined;
            for (const providerId of subscriptions.values())
              if (path.includes(providerId)) writes.set(providerId, (writes.get(providerId) ?? 0) + 1);
            return undefined;
          },
        };
        const reports = await Promise.all(
          [t.a, t.b].map((app) => app.container.make(SeatSync).retryPending()),
        );

        expect(reports.reduce((n, r) => n + r.failed, 0)).toBe(0);
        expect(reports.reduce((n, r) => n + r.synced, 0)).toBe(3);
        expect(await pending()).toEqual([]);
        for (const providerId of subscriptions.values()) {
          expect(writes.get(providerId), `writes to ${providerId}`).toBe(1);
          const sub = await sandbox.subscription(providerId);
          expect(sub?.quantity ?? 1 + (sub?.addOns?.[SEAT.id] ?? 0)).toBe(2);
        }
      }, 60_000);
    });
  }
}
