import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authProvider } from '../../src/auth/provider.js';
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
import { SEAT, startProxiedSeatSandbox } from '../organizations/seat-sandbox.js';
import { createTestApp, type TestApp } from '../support/app.js';
import { ENGINES, postgresServerUrl } from '../support/engines.js';
import type { FaultProxy } from './fault-proxy.js';

/**
 * PostgreSQL ends the connection a seat sync retry is using (a failover, an operator's
 * pg_terminate_backend): the pass fails, the organization stays pending, and the next pass
 * completes it — the seats at the provider equal the members, none lost and none counted twice.
 */
// Only PostgreSQL has backends to kill (a SQLite database is a file inside the process).
for (const engine of ENGINES.filter((each) => each === 'postgres')) {
  for (const harness of [stripeHarness, braintreeHarness] as EditionHarness[]) {
    describe(`a ${engine} connection killed during a seat sync retry (${harness.edition})`, () => {
      let sandbox: EditionSandbox;
      let proxy: FaultProxy;
      let t: TestApp;
      let admin: pg.Client;
      let locker: pg.Client;
      let owner: number;
      let n = 0;

      beforeAll(async () => {
        const started = await startProxiedSeatSandbox(harness);
        ({ sandbox, proxy } = started);
        const { seatPlan } = started;
        t = await createTestApp({
          engine,
          config: { billing: started.billing },
          providers: [
            authProvider(),
            mailProvider(),
            billingProvider(),
            organizationsProvider({ seats: { plans: [seatPlan.id], addOn: SEAT.id } }),
          ],
        });
        const { rows } = await sql<{ name: string }>`select current_database() as name`.execute(t.app.db);
        const url = new URL(postgresServerUrl());
        url.pathname = `/${rows[0]!.name}`;
        admin = new pg.Client({ connectionString: url.toString() });
        await admin.connect();
        // Another session: pg_stat_activity is one snapshot for the whole of a transaction.
        locker = new pg.Client({ connectionString: url.toString() });
        await locker.connect();
        owner = (await user()).id;
      });
      afterAll(async () => {
        await admin?.end();
        await locker?.end();
        if (t) await closeBilling(t.app);
        await t?.close();
        await sandbox?.close();
        await proxy?.close();
      });

      const user = () =>
        t.app.container
          .make(Users)
          .create({ name: `U${++n}`, email: `u${n}@example.com`, password: 'correct horse battery' });
      const pending = async (organization: number) =>
        (
          await t.app.db
            .selectFrom('organization_seat_syncs')
            .select('organization_id')
            .where('organization_id', '=', organization)
            .execute()
        ).length;
      const seats = async (providerId: string) => {
        const sub = await sandbox.subscription(providerId);
        return sub?.quantity ?? 1 + (sub?.addOns?.[SEAT.id] ?? 0);
      };

      /** An organization on the seat plan, whose join the provider refused: one sync pending. */
      const pendingOrganization = async (name: string) => {
        const organizations = t.app.container.make(Organizations);
        const billing = t.app.container.make(OrganizationBilling);
        const id = (await organizations.create(owner, name)).id;
        const organization = await billing.model(id);
        await billing.updateDetails(organization, {
          billing_email: 'b@example.com',
          tax_id: '',
          billing_address: '',
        });
        const sub = await organization
          .newSubscription('default', harness.plans.monthly.id)
          .create(harness.tokens.card);
        proxy.hooks = { before: () => 'unavailable' };
        try {
          await organizations.addMember(id, (await user()).id, 'member', owner);
        } finally {
          proxy.hooks = {};
        }
        expect(await pending(id)).toBe(1);
        expect(await seats(sub.providerId)).toBe(1);
        return { id, providerId: sub.providerId };
      };

      /** Holds the organization's pending row in another session: the retry's next statement on it waits. */
      const hold = async (organization: number) => {
        await locker.query('BEGIN');
        await locker.query('SELECT * FROM organization_seat_syncs WHERE organization_id = $1 FOR UPDATE', [
          organization,
        ]);
      };
      /** Kills the backend waiting on the held row with `statement`, then lets the row go. */
      const killWaiting = async (statement: string) => {
        let killed = 0;
        while (killed === 0) {
          const { rowCount } = await admin.query(
            `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
            WHERE datname = current_database() AND pid <> pg_backend_pid() AND wait_event_type = 'Lock'
              AND query LIKE $1`,
            [`${statement} "organization_seat_syncs"%`],
          );
          killed = rowCount ?? 0;
          if (killed === 0) await new Promise((r) => setTimeout(r, 10));
        }
        await locker.query('ROLLBACK');
      };

      it('killed after the provider took the seats, while the sync is cleared: the next pass clears it, the seats stay right', async () => {
        const { id, providerId } = await pendingOrganization('Acme');
        const seatSync = t.app.container.make(SeatSync);
        let killing: Promise<void> | undefined;
        // The provider's answer waits until the row is held: the sync's clearing of it is what waits.
        proxy.hooks = {
          after: async () => {
            if (!killing) {
              await hold(id);
              killing = killWaiting('delete from');
            }
            return undefined;
          },
        };
        try {
          expect(await seatSync.retryPending()).toEqual({ synced: 0, failed: 1 });
          await killing;
        } finally {
          proxy.hooks = {};
        }
        expect(await seats(providerId)).toBe(2);
        expect(await pending(id)).toBe(1);

        expect(await seatSync.retryPending()).toEqual({ synced: 1, failed: 0 });
        expect(await seats(providerId)).toBe(2);
        expect(await pending(id)).toBe(0);
      }, 60_000);

      it('killed before the provider was asked, while the sync is marked: nothing was sent, the next pass sends it', async () => {
        const { id, providerId } = await pendingOrganization('Beta');
        const seatSync = t.app.container.make(SeatSync);
        const sent: string[] = [];
        proxy.hooks = {
          before: ({ method, path }) =>
            void (method !== 'GET' && path.includes(providerId) && sent.push(path)),
        };
        try {
          await hold(id);
          const killing = killWaiting('insert into');
          expect(await seatSync.retryPending()).toEqual({ synced: 0, failed: 1 });
          await killing;
          expect(sent).toEqual([]);
          expect(await seats(providerId)).toBe(1);
          expect(await pending(id)).toBe(1);

          expect(await seatSync.retryPending()).toEqual({ synced: 1, failed: 0 });
        } finally {
          proxy.hooks = {};
        }
        expect(sent).toHaveLength(1);
        expect(await seats(providerId)).toBe(2);
        expect(await pending(id)).toBe(0);
      }, 60_000);
    });
  }
}
