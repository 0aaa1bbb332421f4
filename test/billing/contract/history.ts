import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Users } from '../../../src/auth/users.js';
import { PaymentGatewayKey } from '../../../src/billing/index.js';
import type { Invoice } from '../../../src/billing/invoices/invoice.js';
import { TestClock } from '../../../src/core/clock.js';
import type { RunningServer } from '../../../src/kernel/server.js';
import type { TestApp } from '../../support/app.js';
import { startBillingApp, stopBillingApp } from '../billing-app.js';
import type { EditionHarness, EditionSandbox } from '../harness.js';
import { expectBillingError, TestUser } from './context.js';
import { pdfText } from './money.js';

// A zero-decimal currency: plan amounts are whole yen in both editions' configuration.
const starter = { id: 'starter-jpy', name: 'Starter', amount: 1000, interval: 'month' as const };
// Braintree's sandbox declines amounts from 2000 to 2999.99 in any currency: no charge lands there.
const team = { id: 'team-jpy', name: 'Team', amount: 4000, interval: 'month' as const };
const yenOff = { id: 'YEN500', amountOff: 500 };
const catalog = { plans: [starter, team], coupons: [yenOff] };

/**
 * Money and history, in yen: amounts converted with the configured currency (a ¥1,000 plan is
 * ¥1,000, not ¥100,000), the tax rate shown is the one applied (8.25% on ¥1,000 is ¥82.5, rounded
 * to ¥83, which reads back as 8.3%), and an invoice reads as it was issued after a tax change, a
 * swap and a renewal. Its own app and sandbox, both selling in JPY.
 */
export function currencyAndHistoryCases(harness: EditionHarness): void {
  describe('money in the configured currency, invoices frozen at issue (JPY)', () => {
    const clock = new TestClock(new Date('2026-03-02T12:00:00Z'));
    let sandbox: EditionSandbox;
    let t: TestApp;
    let server: RunningServer;
    let seq = 0;

    beforeAll(async () => {
      sandbox = await harness.startSandbox({ clock, ...catalog, currency: 'jpy' });
      ({ t, server } = await startBillingApp({
        harness,
        sandbox,
        clock,
        billing: { ...catalog, currency: 'jpy', currencySymbol: '¥' },
        controller: harness.webhook.controller,
      }));
    });
    afterAll(() => stopBillingApp({ t, server }, sandbox));
    afterEach(() => {
      TestUser.tax = 0;
    });

    const newUser = async () => {
      seq++;
      return t.app.container.make(Users).create<TestUser>({
        name: `Yen ${seq}`,
        email: `yen${seq}@example.com`,
        password: 'correct horse battery',
      });
    };
    const reload = async (user: TestUser) => (await t.app.container.make(Users).find<TestUser>(user.id))!;
    const paid = async (user: TestUser) => {
      const column = t.app.container.make(PaymentGatewayKey).capabilities.columns.customerId;
      const payments = await sandbox.payments((await reload(user))[column]!);
      return payments.filter((p) => p.succeeded).map((p) => p.amount);
    };
    const pdf = async (user: TestUser, id: string) =>
      pdfText(
        Buffer.from(
          await (
            await user.downloadInvoice(id, { vendor: 'Tollgate KK', product: 'Tollgate' })
          ).arrayBuffer(),
        ),
      );
    /** What a receipt shows, to compare an invoice before and after. */
    const shown = (invoice: Invoice | undefined) =>
      invoice && {
        total: invoice.total(),
        subtotal: invoice.subtotal(),
        tax: invoice.tax(),
        taxPercentage: invoice.taxPercentage(),
        lines: invoice.lines().map((l) => [l.description, l.amount]),
      };

    it('a ¥1,000 plan bills and shows ¥1,000: plan price, one-off charge, invoices and the PDF', async () => {
      const user = await newUser();
      await user.newSubscription('main', starter.id).create(harness.tokens.card);
      const [first] = await user.invoices();
      expect(first?.total()).toBe('¥1,000');
      expect(first?.rawTotal()).toBe(1000);
      expect(first?.subscriptionLines().map((l) => l.amount)).toEqual(['¥1,000']);
      // One-off amounts are whole yen in either edition's unit.
      await user.charge(1500);
      const setup = await user.invoiceFor('Setup fee', 4999);
      expect(setup.total()).toBe('¥4,999');
      expect((await user.findInvoice(setup.id))?.total()).toBe('¥4,999');
      expect((await paid(user)).sort((a, b) => a - b)).toEqual([1000, 1500, 4999]);
      await expectBillingError(user.charge(10.5), 'invalid_amount');
      // A fixed-amount coupon in whole yen: ¥500 off, described as such.
      const other = await newUser();
      await other.newSubscription('main', starter.id).withCoupon(yenOff.id).create(harness.tokens.card);
      const [discounted] = await other.invoices();
      expect([discounted?.discount(), discounted?.total()]).toEqual(['-¥500', '¥500']);
      expect(discounted?.discountDescription()).toContain('500 JPY off');
      const text = await pdf(user, first!.id);
      expect(text).toContain('¥1,000');
      expect(text).not.toContain('100,000');
    });

    it('the tax rate shown is the one applied: 8.25% on ¥1,000 reads 8.25%, not 8.3%', async () => {
      TestUser.tax = 8.25;
      const user = await newUser();
      await user.newSubscription('main', starter.id).create(harness.tokens.card);
      const [invoice] = await user.invoices();
      expect(shown(invoice)).toMatchObject({ total: '¥1,083', tax: '¥83', taxPercentage: 8.25 });
      expect((await user.findInvoice(invoice!.id))?.taxPercentage()).toBe(8.25);
      expect(await pdf(user, invoice!.id)).toContain('Tax (8.25%)');
    });

    it('an invoice reads as issued after a tax change, a swap and a renewal (list, find, PDF)', async () => {
      TestUser.tax = 8.25;
      const user = await newUser();
      const sub = await user.newSubscription('main', starter.id).create(harness.tokens.card);
      const [issued] = await user.invoices();
      const before = shown(issued);
      expect(before).toMatchObject({ total: '¥1,083', taxPercentage: 8.25 });
      expect(before?.lines[0]?.[0]).toContain('Starter');

      TestUser.tax = 10;
      await sub.syncTaxPercentage();
      await sub.swap(team.id);
      await sandbox.advanceDays(31);

      const invoices = await user.invoices();
      const old = invoices.find((i) => i.id === issued!.id);
      expect(shown(old)).toEqual(before);
      expect(shown(await user.findInvoice(issued!.id))).toEqual(before);
      const text = await pdf(user, issued!.id);
      expect(text).toContain('Starter');
      expect(text).toContain('Tax (8.25%)');
      expect(text).toContain('¥1,083');
      expect(text).not.toContain('Team');
      // Everything issued after the change carries the new rate; the renewal bills Team at 10%.
      const later = invoices.filter((i) => i.id !== issued!.id);
      expect(later.length).toBeGreaterThanOrEqual(2);
      for (const invoice of later) expect(invoice.taxPercentage()).toBe(10);
      expect(shown(later[0])).toMatchObject({ total: '¥4,400', tax: '¥400' });
      expect(later[0]?.subscriptionLines()[0]?.description).toContain('Team');
    });

    it('a renewal is frozen from its webhook, once, when delivered five times at once', async () => {
      TestUser.tax = 8.25;
      const user = await newUser();
      const sub = await user.newSubscription('main', starter.id).create(harness.tokens.card);
      await sandbox.advanceDays(31);
      const listed = (await user.invoices()).map(shown);
      const renewal = sandbox
        .deliveries()
        .filter((d) => d.type === harness.webhook.paidEvent)
        .at(-1)!;
      const statuses = await Promise.all(
        Array.from({ length: 5 }, async () => {
          const { body, headers } = sandbox.signed(renewal.eventId);
          const response = await fetch(`${server.url}${harness.webhook.path}`, {
            method: 'POST',
            body,
            headers,
          });
          return response.status;
        }),
      );
      expect(statuses).toEqual([200, 200, 200, 200, 200]);
      expect((await user.invoices()).map(shown)).toEqual(listed);
      expect(listed.map((i) => i?.taxPercentage)).toEqual([8.25, 8.25]);
      // A later tax change leaves the renewal as it was billed.
      TestUser.tax = 5;
      await sub.syncTaxPercentage();
      expect((await user.invoices()).map(shown)).toEqual(listed);
      const rows = await t.app.db.selectFrom('billing_issued_invoices').select('provider_id').execute();
      expect(new Set(rows.map((r) => r.provider_id)).size).toBe(rows.length);
    });
  });
}
