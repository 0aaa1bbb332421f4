import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authProvider } from '../../src/auth/provider.js';
import { Users } from '../../src/auth/users.js';
import { billingProvider, closeBilling } from '../../src/billing/index.js';
import { TestClock } from '../../src/core/clock.js';
import { listen, type RunningServer } from '../../src/kernel/server.js';
import { mailProvider } from '../../src/mail/provider.js';
import { SeatSync } from '../../src/organizations/billing/seat-sync.js';
import { retrySeatSyncsOnce } from '../../src/organizations/billing/seat-sync-schedule.js';
import { Organizations } from '../../src/organizations/organizations.js';
import { organizationsProvider } from '../../src/organizations/provider.js';
import { tokenIn } from '../auth/browser.js';
import { braintreeHarness } from '../billing/braintree-harness.js';
import type { EditionHarness, EditionSandbox } from '../billing/harness.js';
import { stripeHarness } from '../billing/stripe-harness.js';
import { type FaultProxy, startFaultProxy } from '../faults/fault-proxy.js';
import { createTestApp, type TestApp } from '../support/app.js';
import { ENGINES } from '../support/engines.js';
import { type Mailbox, startMailbox } from '../support/mailbox.js';
import { Member, PASSWORD } from './support.js';

const SEAT = { id: 'seat', name: 'Seat', unitMinor: 2000 };

for (const engine of ENGINES) {
  for (const harness of [stripeHarness, braintreeHarness] as EditionHarness[]) {
    describe(`billing on the organization (${harness.edition}, ${engine})`, () => {
      const clock = new TestClock(new Date('2026-01-15T12:00:00Z'));
      const seatPlan = harness.plans.monthly;
      let sandbox: EditionSandbox;
      let t: TestApp;
      let server: RunningServer;
      let mailbox: Mailbox;
      let organizations: Organizations;
      /** Between the app and the provider, to make the provider fail. */
      let proxy: FaultProxy;

      beforeAll(async () => {
        mailbox = await startMailbox();
        sandbox = await harness.startSandbox({
          clock,
          plans: [seatPlan, harness.plans.other],
          coupons: [],
          currency: 'usd',
          metered: SEAT,
        });
        const provider = (sandbox.config as Record<string, { apiBase: string }>)[harness.edition]!;
        proxy = await startFaultProxy(provider.apiBase);
        t = await createTestApp({
          engine,
          clock,
          config: {
            mail: { url: mailbox.url, worker: { pollMs: 100 } },
            billing: {
              ...sandbox.config,
              [harness.edition]: { ...provider, apiBase: proxy.url },
              plans: [seatPlan, harness.plans.other],
            },
          },
          providers: [
            authProvider(),
            mailProvider(),
            billingProvider(),
            organizationsProvider({ seats: { plans: [seatPlan.id], addOn: SEAT.id } }),
          ],
          setup: (app) => {
            app.router.post(harness.webhook.path, [harness.webhook.controller, 'handle']);
          },
        });
        server = await listen(t.app, '127.0.0.1', 0);
        sandbox.setWebhook(`${server.url}${harness.webhook.path}`);
        organizations = t.app.container.make(Organizations);
      });
      afterAll(async () => {
        await server?.close();
        if (t) await closeBilling(t.app);
        await t?.close();
        await sandbox?.close();
        await proxy?.close();
        await mailbox?.close();
      });

      let n = 0;
      const member = async (name: string): Promise<Member> => {
        const email = `${name}-${++n}@example.com`;
        const user = await t.app.container.make(Users).create({ name, email, password: PASSWORD });
        const browser = new Member(t, user.id, email);
        const res = await browser.submit('/login', { email, password: PASSWORD });
        if (res.status !== 302) throw new Error(`sign-in answered ${res.status}`);
        browser.token = tokenIn(await (await browser.get('/organizations')).text());
        return browser;
      };
      /** Seats billed at the provider: Stripe's quantity; Braintree's plan (one seat) plus the seat add-on. */
      const providerSeats = async (providerId: string) => {
        const sub = await sandbox.subscription(providerId);
        return sub?.quantity ?? 1 + (sub?.addOns?.[SEAT.id] ?? 0);
      };
      const organizationRow = (id: number) =>
        t.app.db.selectFrom('organizations').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
      const subscriptionRow = (id: number) =>
        t.app.db
          .selectFrom('subscriptions')
          .selectAll()
          .where('billable_type', '=', 'organization')
          .where('billable_id', '=', id)
          .executeTakeFirst();

      it('the organization subscribes and holds the card: its own customer, not the member who paid', async () => {
        const owner = await member('ada');
        const acme = await organizations.create(owner.id, 'Acme');
        const res = await owner.send(`/organizations/${acme.id}/billing/subscribe`, {
          plan: harness.plans.other.id,
          token: harness.tokens.card,
        });
        expect(res.status).toBe(200);
        const row = await organizationRow(acme.id);
        const column = harness.edition === 'stripe' ? 'stripe_id' : 'braintree_id';
        expect(row[column]).toBeTruthy();
        expect(row.card_last_four).toBe(harness.cardOf.card.lastFour);
        expect(row.billing_email).toBe(owner.email);
        const sub = await subscriptionRow(acme.id);
        expect(sub).toMatchObject({ user_id: null, billable_type: 'organization', billable_id: acme.id });
        const user = await t.app.db
          .selectFrom('users')
          .selectAll()
          .where('id', '=', owner.id)
          .executeTakeFirstOrThrow();
        expect(user[column]).toBeNull();
        const page = (await (
          await owner.get(`/organizations/${acme.id}/billing`, { accept: 'application/json' })
        ).json()) as {
          subscription: { billable_type: string } | null;
        };
        expect(page.subscription?.billable_type).toBe('organization');
      });

      it('a member using the billing page or API gets 403, a non-member 404; the billing role may', async () => {
        const owner = await member('ben');
        const [plain, biller, stranger] = [await member('cy'), await member('dee'), await member('eve')];
        const org = await organizations.create(owner.id, 'Beta');
        await organizations.addMember(org.id, plain.id, 'member', owner.id);
        await organizations.addMember(org.id, biller.id, 'billing', owner.id);
        expect((await plain.get(`/organizations/${org.id}/billing`)).status).toBe(403);
        const refused = await plain.send(`/organizations/${org.id}/billing/subscribe`, {
          plan: harness.plans.other.id,
          token: harness.tokens.card,
        });
        expect(refused.status).toBe(403);
        expect(await subscriptionRow(org.id)).toBeUndefined();
        expect((await stranger.get(`/organizations/${org.id}/billing`)).status).toBe(404);
        expect((await biller.get(`/organizations/${org.id}/billing`)).status).toBe(200);
        const saved = await biller.send(`/organizations/${org.id}/billing/details`, {
          billing_email: 'ap@beta.example',
          tax_id: 'DE123456789',
          billing_address: 'Hauptstr. 1\n10115 Berlin',
        });
        expect(saved.status).toBe(200);
      });

      it("the invoice is addressed to the organization with its tax id; another organization's invoice is 404", async () => {
        const owner = await member('fay');
        const org = await organizations.create(owner.id, 'Gamma GmbH');
        await owner.send(`/organizations/${org.id}/billing/details`, {
          billing_email: 'billing@gamma.example',
          tax_id: 'DE999888777',
          billing_address: 'Ring 5\n80331 Munich',
        });
        const subscribed = await owner.send(`/organizations/${org.id}/billing/subscribe`, {
          plan: harness.plans.other.id,
          token: harness.tokens.card,
        });
        expect(subscribed.status).toBe(200);
        await sandbox.settled();
        const listing = (await (
          await owner.get(`/organizations/${org.id}/billing`, { accept: 'application/json' })
        ).json()) as { invoices: { id: string }[] };
        expect(listing.invoices.length).toBeGreaterThan(0);
        const invoiceId = listing.invoices[0]!.id;
        const pdf = await owner.get(`/organizations/${org.id}/invoices/${invoiceId}`);
        expect(pdf.status).toBe(200);
        expect(pdf.headers.get('content-type')).toContain('application/pdf');
        const dir = mkdtempSync(join(tmpdir(), 'org-invoice-'));
        writeFileSync(join(dir, 'invoice.pdf'), Buffer.from(await pdf.arrayBuffer()));
        const text = execFileSync('pdftotext', [join(dir, 'invoice.pdf'), '-']).toString();
        expect(text).toContain('Gamma GmbH');
        expect(text).toContain('billing@gamma.example');
        expect(text).toContain('DE999888777');
        expect(text).toContain('80331 Munich');
        expect(text).not.toContain(owner.email);

        const other = await member('gus');
        const otherOrg = await organizations.create(other.id, 'Delta');
        expect((await other.get(`/organizations/${otherOrg.id}/invoices/${invoiceId}`)).status).toBe(404);
      });

      it('deleting an organization cancels its subscription at the provider first', async () => {
        const owner = await member('hal');
        const org = await organizations.create(owner.id, 'Epsilon');
        await owner.send(`/organizations/${org.id}/billing/subscribe`, {
          plan: harness.plans.other.id,
          token: harness.tokens.card,
        });
        const providerId = String(
          (await subscriptionRow(org.id))?.[harness.edition === 'stripe' ? 'stripe_id' : 'braintree_id'],
        );
        expect((await owner.send(`/organizations/${org.id}/delete`)).status).toBe(200);
        expect((await sandbox.subscription(providerId))?.status).toMatch(/^(canceled|Canceled)$/);
        expect(
          (await t.app.db.selectFrom('organizations').select('id').where('id', '=', org.id).execute()).length,
        ).toBe(0);
      });

      it('a per-seat plan bills one seat per member: joins and leaves change the seats at the provider', async () => {
        const owner = await member('ida');
        const org = await organizations.create(owner.id, 'Zeta');
        const [a, b] = [await member('jo'), await member('kim')];
        await organizations.addMember(org.id, a.id, 'member', owner.id);
        const res = await owner.send(`/organizations/${org.id}/billing/subscribe`, {
          plan: seatPlan.id,
          token: harness.tokens.card,
        });
        expect(res.status).toBe(200);
        const providerId = String(
          (await subscriptionRow(org.id))?.[harness.edition === 'stripe' ? 'stripe_id' : 'braintree_id'],
        );
        expect(await providerSeats(providerId)).toBe(2);
        await organizations.addMember(org.id, b.id, 'member', owner.id);
        expect(await providerSeats(providerId)).toBe(3);
        await organizations.remove(owner.id, org.id, a.id);
        expect(await providerSeats(providerId)).toBe(2);
        if (harness.capabilities.supportsQuantities)
          expect((await subscriptionRow(org.id))?.quantity).toBe(2);
      });

      it('members added while the seats are being synced: the provider ends with the true count', async () => {
        const owner = await member('lee');
        const org = await organizations.create(owner.id, 'Eta');
        await owner.send(`/organizations/${org.id}/billing/subscribe`, {
          plan: seatPlan.id,
          token: harness.tokens.card,
        });
        const providerId = String(
          (await subscriptionRow(org.id))?.[harness.edition === 'stripe' ? 'stripe_id' : 'braintree_id'],
        );
        const joiners = await Promise.all(['m1', 'm2', 'm3', 'm4', 'm5'].map((name) => member(name)));
        const seats = t.app.container.make(SeatSync);
        // Five joins at once, each syncing after its commit, with syncs already in flight among them.
        await Promise.all([
          seats.sync(org.id),
          ...joiners.map((j) => organizations.addMember(org.id, j.id, 'member', owner.id)),
          seats.sync(org.id),
        ]);
        expect(await providerSeats(providerId)).toBe(6);
        expect((await organizations.members(org.id)).length).toBe(6);
      });

      it('a join while the provider answers 503: the seats are set by the retry, without another membership change', async () => {
        const owner = await member('max');
        const org = await organizations.create(owner.id, 'Theta');
        await owner.send(`/organizations/${org.id}/billing/subscribe`, {
          plan: seatPlan.id,
          token: harness.tokens.card,
        });
        const providerId = String(
          (await subscriptionRow(org.id))?.[harness.edition === 'stripe' ? 'stripe_id' : 'braintree_id'],
        );
        expect(await providerSeats(providerId)).toBe(1);
        const pending = () =>
          t.app.db.selectFrom('organization_seat_syncs').select('organization_id').execute();
        expect(await pending()).toEqual([]);

        const joiner = await member('ned');
        proxy.hooks = { before: () => 'unavailable' };
        try {
          await organizations.addMember(org.id, joiner.id, 'member', owner.id);
          expect(await providerSeats(providerId)).toBe(1); // the provider refused the change
          expect(await retrySeatSyncsOnce(t.app, { everyMs: 60_000 })).toEqual({ synced: 0, failed: 1 });
        } finally {
          proxy.hooks = {};
        }
        expect(await pending()).toEqual([{ organization_id: org.id }]);

        // The provider is back; the next interval's pass sets the seats.
        clock.advance(60_000);
        expect(await retrySeatSyncsOnce(t.app, { everyMs: 60_000 })).toEqual({ synced: 1, failed: 0 });
        expect(await providerSeats(providerId)).toBe(2);
        if (harness.capabilities.supportsQuantities)
          expect((await subscriptionRow(org.id))?.quantity).toBe(2);
        expect(await pending()).toEqual([]);
      });
    });
  }
}
