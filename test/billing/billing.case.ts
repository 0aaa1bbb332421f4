import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { User } from '../../src/auth/user.js';
import { UserModelToken, Users } from '../../src/auth/users.js';
import {
  Billable,
  BillingError,
  BillingProviderToken,
  billingProvider,
  closeBilling,
  handlerName,
  type WebhookEvent,
} from '../../src/billing/index.js';
import { TestClock } from '../../src/foundation/clock.js';
import { listen, type RunningServer } from '../../src/http/server.js';
import { createTestApp, type TestApp } from '../support/app.js';
import type { EditionHarness, EditionSandbox } from './harness.js';

const START = new Date('2026-01-15T12:00:00Z');
const DAY_MS = 86_400_000;

/**
 * The billing contract every edition meets: the spec's operations and every row of its state
 * table, through the real adapter, the official SDK and the edition's sandbox over HTTP, on the
 * test database (SQLite, or PostgreSQL under TEST_DATABASE_URL).
 */
export function billingContract(harness: EditionHarness): void {
  const engine = process.env.TEST_DATABASE_URL ? 'postgres' : 'sqlite';
  let taxPercentage = 0;
  class TestUser extends Billable(User) {
    override taxPercentage(): number {
      return taxPercentage;
    }
  }

  // Counts runs of the "paid" handler per event id, and can be told to fail once.
  const handled: string[] = [];
  let failNextHandler = false;
  class TestWebhooks extends harness.webhook.controller {}
  Object.defineProperty(TestWebhooks.prototype, handlerName(harness.webhook.paidEvent), {
    value: async (_payload: unknown, event: WebhookEvent) => {
      if (failNextHandler) {
        failNextHandler = false;
        throw new Error('handler failed on purpose');
      }
      handled.push(event.id);
    },
  });

  describe(`billing contract: ${harness.edition} edition on ${engine}`, () => {
    const clock = new TestClock(START);
    const { plans, tokens } = harness;
    let sandbox: EditionSandbox;
    let t: TestApp;
    let server: RunningServer;
    let seq = 0;

    beforeAll(async () => {
      const catalog = { plans: [plans.monthly, plans.other, plans.yearly], coupons: [harness.coupon] };
      sandbox = await harness.startSandbox({ clock, ...catalog, currency: 'usd' });
      t = await createTestApp({
        clock,
        config: { billing: { ...sandbox.config, ...catalog, currency: 'usd', currencySymbol: '$' } },
        providers: [billingProvider()],
        setup: (app) => {
          app.container.instance(UserModelToken, TestUser);
          // Outside the `web` group: no session, no CSRF (spec, "Webhook receiver").
          app.router.post(harness.webhook.path, [TestWebhooks, 'handle']);
        },
      });
      server = await listen(t.app, '127.0.0.1', 0);
      sandbox.setWebhook(`${server.url}${harness.webhook.path}`);
    });

    afterAll(async () => {
      await server?.close();
      if (t) await closeBilling(t.app);
      await t?.close();
      await sandbox?.close();
    });

    afterEach(() => {
      taxPercentage = 0;
      failNextHandler = false;
    });

    const newUser = async (attributes: { trial_ends_at?: string } = {}): Promise<TestUser> => {
      seq++;
      const users = t.app.container.make(Users);
      const user = await users.create<TestUser>({
        name: `Customer ${seq}`,
        email: `customer${seq}@example.com`,
        password: 'correct horse battery',
      });
      if (attributes.trial_ends_at) await users.update(user, { trial_ends_at: attributes.trial_ends_at });
      return user;
    };
    const reload = async (user: TestUser) => (await t.app.container.make(Users).find<TestUser>(user.id))!;
    const customerId = (user: TestUser) =>
      user[t.app.container.make(BillingProviderToken).capabilities.columns.customerId]!;
    const localRows = (user: TestUser) =>
      t.app.db.selectFrom('subscriptions').selectAll().where('user_id', '=', user.id).execute();
    const expectBillingError = async (promise: Promise<unknown>, code: BillingError['code']) => {
      const err = await promise.then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(err).toBeInstanceOf(BillingError);
      expect((err as BillingError).code).toBe(code);
      return err as BillingError;
    };
    const paidAmounts = async (user: TestUser) =>
      (await sandbox.payments(customerId(user))).filter((p) => p.succeeded).map((p) => p.amount);

    it('the provider declares the capabilities the harness expects', () => {
      const { capabilities } = t.app.container.make(BillingProviderToken);
      expect({
        supportsQuantities: capabilities.supportsQuantities,
        supportsPaypal: capabilities.supportsPaypal,
        amountUnit: capabilities.amountUnit,
      }).toEqual(harness.capabilities);
      expect(capabilities.edition).toBe(harness.edition);
    });

    describe('newSubscription(name, plan).create(token)', () => {
      it('none → active: stores the customer id, card, and the subscription record; bills at once', async () => {
        const user = await newUser();
        const sub = await user.newSubscription('main', plans.monthly.id).create(tokens.card);
        const fresh = await reload(user);
        expect(customerId(fresh)).toBeTruthy();
        expect(fresh.card_brand).toBe(harness.cardOf.card.brand);
        expect(fresh.card_last_four).toBe(harness.cardOf.card.lastFour);
        expect(sub.plan).toBe(plans.monthly.id);
        expect(sub.providerId).toBeTruthy();
        expect(sub.name).toBe('main');
        expect(sub.active() && sub.valid() && !sub.onTrial() && !sub.cancelled()).toBe(true);
        expect(await fresh.subscribed('main')).toBe(true);
        expect(await fresh.subscribed('other-name')).toBe(false);
        expect(await fresh.subscribedToPlan(plans.monthly.id, 'main')).toBe(true);
        expect(await fresh.subscribedToPlan([plans.other.id, plans.monthly.id], 'main')).toBe(true);
        expect(await fresh.subscribedToPlan(plans.other.id, 'main')).toBe(false);
        expect(await fresh.subscribed('main', plans.other.id)).toBe(false);
        expect(await fresh.onPlan(plans.monthly.id)).toBe(true);
        expect((await fresh.subscriptions()).map((s) => s.name)).toEqual(['main']);
        expect(await paidAmounts(fresh)).toEqual([harness.monthlyMinor]);
        expect((await sandbox.subscription(sub.providerId))?.plan).toBe(plans.monthly.id);
      });

      it('a card declined at create throws card_declined with the provider message and leaves no subscription row', async () => {
        const user = await newUser();
        const err = await expectBillingError(
          user.newSubscription('main', plans.monthly.id).create(tokens.declined),
          'card_declined',
        );
        expect(err.message.length).toBeGreaterThan(0);
        expect(err.providerCode).toBeTruthy();
        expect(await localRows(user)).toEqual([]);
        expect(await (await reload(user)).subscribed('main')).toBe(false);
      });

      it('a card that attaches but fails its first charge throws and leaves no subscription row', async () => {
        const user = await newUser();
        await expectBillingError(
          user.newSubscription('main', plans.monthly.id).create(tokens.failsLater),
          'card_declined',
        );
        expect(await localRows(user)).toEqual([]);
        expect(await paidAmounts(await reload(user))).toEqual([]);
      });

      it('withCoupon applies the coupon to the charge', async () => {
        const user = await newUser();
        await user
          .newSubscription('main', plans.monthly.id)
          .withCoupon(harness.coupon.id)
          .create(tokens.card);
        const expected = Math.round(harness.monthlyMinor * (1 - harness.coupon.percentOff / 100));
        expect(await paidAmounts(await reload(user))).toEqual([expected]);
        const [invoice] = await (await reload(user)).invoices();
        expect(invoice?.hasDiscount()).toBe(true);
        expect(invoice?.rawTotal()).toBe(expected);
      });

      it('an unknown plan is a provider_error and leaves no subscription row', async () => {
        const user = await newUser();
        await expectBillingError(
          user.newSubscription('main', 'no-such-plan').create(tokens.card),
          'provider_error',
        );
        expect(await localRows(user)).toEqual([]);
      });
    });

    describe('trials', () => {
      it('trialDays(n): active in trial, trial end stored, nothing billed; when it passes the customer is charged', async () => {
        const user = await newUser();
        const sub = await user.newSubscription('main', plans.monthly.id).trialDays(10).create(tokens.card);
        expect(sub.onTrial()).toBe(true);
        expect(new Date(sub.trial_ends_at!).getTime()).toBe(clock.now().getTime() + 10 * DAY_MS);
        expect(await user.onTrial('main')).toBe(true);
        expect(await user.onTrial('main', plans.monthly.id)).toBe(true);
        expect(await user.onTrial('main', plans.other.id)).toBe(false);
        expect(await user.subscribed('main')).toBe(true);
        expect(await paidAmounts(await reload(user))).toEqual([]);

        await sandbox.advanceDays(11);
        const after = (await user.subscription('main'))!;
        expect(after.onTrial()).toBe(false);
        expect(after.active()).toBe(true);
        expect(await user.subscribed('main')).toBe(true);
        expect(await paidAmounts(await reload(user))).toEqual([harness.monthlyMinor]);
      });

      it('generic trial: onTrial() and onGenericTrial() until trial_ends_at passes, without a subscription', async () => {
        const ends = new Date(clock.now().getTime() + 5 * DAY_MS).toISOString();
        const user = await newUser({ trial_ends_at: ends });
        expect(user.onGenericTrial()).toBe(true);
        expect(await user.onTrial()).toBe(true);
        expect(await user.onTrial('main')).toBe(false);
        expect(await user.subscribed('main')).toBe(false);
        await sandbox.advanceDays(6);
        expect(user.onGenericTrial()).toBe(false);
        expect(await user.onTrial()).toBe(false);
      });

      it('generic trial → newSubscription().create(token) → active', async () => {
        const user = await newUser({
          trial_ends_at: new Date(clock.now().getTime() + 5 * DAY_MS).toISOString(),
        });
        await user.newSubscription('main', plans.monthly.id).create(tokens.card);
        expect(await user.subscribed('main')).toBe(true);
        expect((await user.subscription('main'))!.onTrial()).toBe(false);
      });
    });

    describe('cancel, grace period, resume', () => {
      it('cancel(): on grace period until the end of the paid period, then not subscribed', async () => {
        const user = await newUser();
        const created = clock.now().getTime();
        const sub = await user.newSubscription('main', plans.monthly.id).create(tokens.card);
        await sandbox.advanceDays(3);
        await sub.cancel();
        expect(sub.cancelled()).toBe(true);
        expect(sub.onGracePeriod()).toBe(true);
        expect(sub.active()).toBe(true);
        expect(await user.subscribed('main')).toBe(true);
        // The paid period is one month from the start.
        const endsAt = new Date(sub.ends_at!).getTime();
        expect(endsAt).toBeGreaterThan(created + 27 * DAY_MS);
        expect(endsAt).toBeLessThanOrEqual(created + 31 * DAY_MS);

        clock.set(endsAt + 60_000);
        await sandbox.advanceDays(0);
        const later = (await user.subscription('main'))!;
        expect(later.onGracePeriod()).toBe(false);
        expect(later.ended()).toBe(true);
        expect(await user.subscribed('main')).toBe(false);
        expect(await paidAmounts(await reload(user))).toEqual([harness.monthlyMinor]);
      });

      it('cancel() during a trial: the grace period ends with the trial', async () => {
        const user = await newUser();
        const sub = await user.newSubscription('main', plans.monthly.id).trialDays(7).create(tokens.card);
        await sub.cancel();
        expect(sub.ends_at).toBe(sub.trial_ends_at);
        expect(sub.onGracePeriod() && sub.onTrial()).toBe(true);
        await sandbox.advanceDays(8);
        expect(await user.subscribed('main')).toBe(false);
        expect(await paidAmounts(await reload(user))).toEqual([]);
      });

      it('cancelNow(): cancelled at once, not subscribed', async () => {
        const user = await newUser();
        const sub = await user.newSubscription('main', plans.monthly.id).create(tokens.card);
        await sub.cancelNow();
        expect(sub.cancelled()).toBe(true);
        expect(sub.onGracePeriod()).toBe(false);
        expect(await user.subscribed('main')).toBe(false);
        expect((await sandbox.subscription(sub.providerId))?.status).toMatch(/cancel/i);
      });

      it('resume() within the grace period: active again, no immediate charge, billed on the original cycle', async () => {
        const user = await newUser();
        const start = clock.now().getTime();
        const sub = await user.newSubscription('main', plans.monthly.id).create(tokens.card);
        await sandbox.advanceDays(5);
        await sub.cancel();
        const periodEnd = new Date(sub.ends_at!).getTime();
        await sandbox.advanceDays(5);
        await sub.resume();
        expect(sub.cancelled()).toBe(false);
        expect(sub.ends_at).toBeNull();
        expect(await user.subscribed('main')).toBe(true);
        expect(await paidAmounts(await reload(user))).toEqual([harness.monthlyMinor]);

        // The next charge comes at the end of the original period, not a month after resume().
        clock.set(periodEnd - DAY_MS);
        await sandbox.advanceDays(0);
        expect(await paidAmounts(await reload(user))).toEqual([harness.monthlyMinor]);
        clock.set(periodEnd + 60_000);
        await sandbox.advanceDays(0);
        expect(await paidAmounts(await reload(user))).toEqual([harness.monthlyMinor, harness.monthlyMinor]);
        expect(await user.subscribed('main')).toBe(true);
        expect(periodEnd).toBeGreaterThan(start);
      });

      it('swap() during the grace period undoes the cancellation; an ended subscription cannot be swapped', async () => {
        const user = await newUser();
        const sub = await user.newSubscription('main', plans.monthly.id).create(tokens.card);
        await sub.cancel();
        await sub.swap(plans.other.id);
        expect(sub.cancelled()).toBe(false);
        expect((await user.subscription('main'))!.ends_at).toBeNull();
        await sub.cancelNow();
        await expectBillingError(sub.swap(plans.monthly.id), 'subscription_cancelled');
      });

      it('after a subscription ended, a new one of the same name is the one that counts', async () => {
        const user = await newUser();
        const first = await user.newSubscription('main', plans.monthly.id).create(tokens.card);
        await first.cancelNow();
        expect(await user.subscribed('main')).toBe(false);
        const second = await user.newSubscription('main', plans.other.id).create();
        expect((await user.subscription('main'))!.id).toBe(second.id);
        expect(await user.subscribed('main', plans.other.id)).toBe(true);
        expect(await user.subscriptions()).toHaveLength(2);
      });

      it('resume() outside the grace period throws not_on_grace_period', async () => {
        const user = await newUser();
        const sub = await user.newSubscription('main', plans.monthly.id).create(tokens.card);
        await expectBillingError(sub.resume(), 'not_on_grace_period');
        await sub.cancelNow();
        await expectBillingError(sub.resume(), 'not_on_grace_period');
      });
    });

    describe('swap', () => {
      it('active → same status, new plan', async () => {
        const user = await newUser();
        const sub = await user.newSubscription('main', plans.monthly.id).create(tokens.card);
        await sub.swap(plans.other.id);
        expect(sub.plan).toBe(plans.other.id);
        expect(sub.active() && !sub.onTrial()).toBe(true);
        expect(await user.subscribedToPlan(plans.other.id, 'main')).toBe(true);
        expect((await sandbox.subscription(sub.providerId))?.plan).toBe(plans.other.id);
      });

      it('in trial → keeps the trial (and the quantity where the edition has quantities)', async () => {
        const user = await newUser();
        const quantity = harness.capabilities.supportsQuantities ? 3 : 1;
        const sub = await user
          .newSubscription('main', plans.monthly.id)
          .trialDays(10)
          .quantity(quantity)
          .create(tokens.card);
        const trialEnds = sub.trial_ends_at;
        await sub.swap(plans.other.id);
        expect(sub.plan).toBe(plans.other.id);
        expect(sub.trial_ends_at).toBe(trialEnds);
        expect(sub.onTrial()).toBe(true);
        const remote = await sandbox.subscription(sub.providerId);
        expect(remote?.plan).toBe(plans.other.id);
        if (harness.capabilities.supportsQuantities) {
          expect(sub.quantity).toBe(3);
          expect(remote?.quantity).toBe(3);
        }
        expect(await paidAmounts(await reload(user))).toEqual([]);
      });

      it('in trial → skipTrial() then swap(plan) → active on the new plan, billed at once', async () => {
        const user = await newUser();
        const sub = await user.newSubscription('main', plans.monthly.id).trialDays(10).create(tokens.card);
        await sub.skipTrial().swap(plans.other.id);
        expect(sub.onTrial()).toBe(false);
        expect(sub.trial_ends_at).toBeNull();
        expect(sub.plan).toBe(plans.other.id);
        expect(sub.active()).toBe(true);
        const fresh = (await user.subscription('main'))!;
        expect(fresh.onTrial()).toBe(false);
        expect(await paidAmounts(await reload(user))).toEqual([harness.otherMinor]);
      });
    });

    describe('quantities', () => {
      if (harness.capabilities.supportsQuantities) {
        it('quantity(n) at creation, then increment, decrement (never below 1) and update', async () => {
          const user = await newUser();
          const sub = await user.newSubscription('main', plans.monthly.id).quantity(2).create(tokens.card);
          expect(sub.quantity).toBe(2);
          expect(await paidAmounts(await reload(user))).toEqual([2 * harness.monthlyMinor]);
          await sub.incrementQuantity();
          expect(sub.quantity).toBe(3);
          await sub.incrementQuantity(2);
          expect(sub.quantity).toBe(5);
          await sub.decrementQuantity(3);
          expect(sub.quantity).toBe(2);
          await sub.decrementQuantity(5);
          expect(sub.quantity).toBe(1);
          await sub.updateQuantity(7);
          expect(sub.quantity).toBe(7);
          expect((await sandbox.subscription(sub.providerId))?.quantity).toBe(7);
          expect((await user.subscription('main'))!.quantity).toBe(7);
          await expectBillingError(sub.updateQuantity(0), 'invalid_quantity');
        });
      } else {
        it('quantity operations throw unsupported_by_edition naming the edition', async () => {
          const user = await newUser();
          const err = await expectBillingError(
            user.newSubscription('main', plans.monthly.id).quantity(2).create(tokens.card),
            'unsupported_by_edition',
          );
          expect(err.message).toContain(harness.edition);
          const sub = await user.newSubscription('main', plans.monthly.id).create(tokens.card);
          await expectBillingError(sub.incrementQuantity(), 'unsupported_by_edition');
          await expectBillingError(sub.updateQuantity(3), 'unsupported_by_edition');
        });
      }
    });

    describe('tax', () => {
      it('taxPercentage() applies to subscription charges and appears on the invoice', async () => {
        taxPercentage = 10;
        const user = await newUser();
        await user.newSubscription('main', plans.monthly.id).create(tokens.card);
        const withTax = Math.round(harness.monthlyMinor * 1.1);
        expect(await paidAmounts(await reload(user))).toEqual([withTax]);
        const [invoice] = await user.invoices();
        expect(invoice?.hasTax()).toBe(true);
        expect(invoice?.rawTotal()).toBe(withTax);
        expect(invoice?.taxPercentage()).toBe(10);
      });

      it('one-off charges carry no tax', async () => {
        taxPercentage = 10;
        const user = await newUser();
        await user.updateCard(tokens.card);
        await user.charge(harness.toEditionAmount(500));
        expect(await paidAmounts(await reload(user))).toEqual([500]);
      });

      it.each([101, -1, 10.125, Number.NaN])(
        'taxPercentage() = %s is refused before the provider is called',
        async (bad) => {
          taxPercentage = bad;
          const user = await newUser();
          await expectBillingError(
            user.newSubscription('main', plans.monthly.id).create(tokens.card),
            'invalid_tax_percentage',
          );
          expect(customerId(await reload(user))).toBeFalsy();
          expect(await localRows(user)).toEqual([]);
        },
      );
    });

    describe('cards and one-off charges', () => {
      it('updateCard(token) makes the new card the default and stores its brand and last four', async () => {
        const user = await newUser();
        await user.newSubscription('main', plans.monthly.id).create(tokens.card);
        await user.updateCard(tokens.otherCard);
        const fresh = await reload(user);
        expect(fresh.card_brand).toBe(harness.cardOf.otherCard.brand);
        expect(fresh.card_last_four).toBe(harness.cardOf.otherCard.lastFour);
        expect(fresh.hasCardOnFile()).toBe(true);
      });

      it('charge(amount, options) returns the full provider response', async () => {
        const user = await newUser();
        await user.updateCard(tokens.card);
        // Option names are the provider's own, so the shared suite passes none (editions test theirs).
        const response = await user.charge(harness.toEditionAmount(1234));
        expect(response.id).toBeTruthy();
        expect(Object.keys(response).length).toBeGreaterThan(5);
        expect(await paidAmounts(await reload(user))).toEqual([1234]);
      });

      it('a declined one-off charge throws card_declined carrying the provider message and code', async () => {
        const user = await newUser();
        await user.updateCard(tokens.failsLater);
        const err = await expectBillingError(user.charge(harness.toEditionAmount(1500)), 'card_declined');
        expect(err.message).toMatch(/declin/i);
        expect(err.providerCode).toBeTruthy();
        expect(err.status).toBe(402);
      });

      it('refuses amounts that are not valid in the edition unit', async () => {
        const user = await newUser();
        await user.updateCard(tokens.card);
        await expectBillingError(user.charge(0), 'invalid_amount');
        await expectBillingError(user.charge(-5), 'invalid_amount');
        if (harness.capabilities.amountUnit === 'minor')
          await expectBillingError(user.charge(10.5), 'invalid_amount');
      });
    });

    describe('invoices', () => {
      it('invoiceFor bills at once with an invoice; invoices() lists it, formatted for display', async () => {
        const user = await newUser();
        await user.updateCard(tokens.card);
        const invoice = await user.invoiceFor('Setup fee', harness.toEditionAmount(4999));
        expect(invoice.total()).toBe('$49.99');
        expect(invoice.paid()).toBe(true);
        expect(invoice.date()).toMatch(/^[A-Z][a-z]{2} \d{1,2}, \d{4}$/);
        expect(invoice.lines().map((l) => l.description)).toContain('Setup fee');
        const listed = await user.invoices();
        expect(listed.map((i) => i.id)).toContain(invoice.id);
        expect((await user.findInvoice(invoice.id))?.total()).toBe('$49.99');
      });

      it('a failed invoiceFor throws card_declined and lists no paid invoice for it', async () => {
        const user = await newUser();
        await user.updateCard(tokens.failsLater);
        await expectBillingError(
          user.invoiceFor('Consulting', harness.toEditionAmount(2000)),
          'card_declined',
        );
        expect(await user.invoices()).toEqual([]);
        expect(await paidAmounts(await reload(user))).toEqual([]);
      });

      it("another user's invoice is never found", async () => {
        const owner = await newUser();
        await owner.updateCard(tokens.card);
        const invoice = await owner.invoiceFor('Private', harness.toEditionAmount(700));
        const other = await newUser();
        await other.updateCard(tokens.card);
        expect(await other.findInvoice(invoice.id)).toBeUndefined();
        await expectBillingError(
          other.downloadInvoice(invoice.id, { vendor: 'V', product: 'P' }),
          'invoice_not_found',
        );
      });

      it('downloadInvoice returns a PDF with vendor, product, date, lines, discount, tax and total', async () => {
        taxPercentage = 8.25;
        const user = await newUser();
        const sub = await user
          .newSubscription('main', plans.monthly.id)
          .withCoupon(harness.coupon.id)
          .create(tokens.card);
        expect(sub.valid()).toBe(true);
        const [invoice] = await user.invoices();
        const response = await user.downloadInvoice(invoice!.id, {
          vendor: 'Tollgate Inc.',
          product: 'Tollgate Pro',
        });
        expect(response.headers.get('content-type')).toBe('application/pdf');
        expect(response.headers.get('content-disposition')).toMatch(
          /^attachment; filename="tollgate-pro_\d{4}-\d{2}\.pdf"$/,
        );
        const bytes = Buffer.from(await response.arrayBuffer());
        expect(bytes.subarray(0, 5).toString()).toBe('%PDF-');
        const text = pdfText(bytes);
        for (const expected of [
          'Tollgate Inc.',
          'Tollgate Pro',
          invoice!.date(),
          invoice!.total(),
          invoice!.tax(),
          invoice!.discount(),
        ]) {
          expect(text).toContain(expected);
        }
        expect(text).toContain('8.25%');
      });
    });

    describe('webhooks', () => {
      const post = (body: string, headers: Record<string, string>) =>
        fetch(`${server.url}${harness.webhook.path}`, { method: 'POST', body, headers });

      it('three failed renewals → the provider gives up → webhook → not subscribed', async () => {
        const user = await newUser();
        const sub = await user
          .newSubscription('main', plans.monthly.id)
          .trialDays(2)
          .create(tokens.failsLater);
        await sandbox.advanceDays(3);
        expect(await user.subscribed('main')).toBe(true);
        const attempts = await sandbox.payments(customerId(await reload(user)));
        expect(attempts.length).toBeGreaterThanOrEqual(1);
        expect(attempts.every((p) => !p.succeeded)).toBe(true);
        for (let day = 0; day < harness.retryWindowDays; day++) await sandbox.advanceDays(1);
        const failed = await sandbox.payments(customerId(await reload(user)));
        expect(failed.length).toBeGreaterThanOrEqual(3);
        const terminal = sandbox.deliveries().filter((d) => d.type === harness.webhook.failedTerminalEvent);
        expect(terminal.some((d) => d.status === 200)).toBe(true);
        const after = (await user.subscription('main'))!;
        expect(after.cancelled()).toBe(true);
        expect(await user.subscribed('main')).toBe(false);
        expect(after.providerId).toBe(sub.providerId);
      });

      it('a duplicate delivery is acknowledged and processed once', async () => {
        const user = await newUser();
        await user.newSubscription('main', plans.monthly.id).create(tokens.card);
        const delivery = sandbox
          .deliveries()
          .filter((d) => d.type === harness.webhook.paidEvent && d.status === 200)
          .at(-1)!;
        expect(handled.filter((id) => id === delivery.eventId)).toHaveLength(1);
        expect((await sandbox.redeliver(delivery.eventId)).status).toBe(200);
        expect(handled.filter((id) => id === delivery.eventId)).toHaveLength(1);
      });

      it('a bad or missing signature is refused with 400 and nothing is processed', async () => {
        const user = await newUser();
        failNextHandler = true; // the first delivery fails, so the event is not recorded
        await user.newSubscription('main', plans.monthly.id).create(tokens.card);
        const eventId = sandbox
          .deliveries()
          .filter((d) => d.type === harness.webhook.paidEvent)
          .at(-1)!.eventId;
        expect(handled).not.toContain(eventId);
        for (const kind of ['wrong', 'missing'] as const) {
          const forged = sandbox.forged(eventId, kind);
          const response = await post(forged.body, forged.headers);
          expect(response.status).toBe(400);
        }
        expect(handled).not.toContain(eventId);
      });

      it('a handler that throws → 500, the event is not recorded, and a redelivery processes it', async () => {
        const user = await newUser();
        failNextHandler = true;
        await user.newSubscription('main', plans.monthly.id).create(tokens.card);
        const first = sandbox
          .deliveries()
          .filter((d) => d.type === harness.webhook.paidEvent)
          .at(-1)!;
        expect(first.status).toBe(500);
        expect(handled).not.toContain(first.eventId);
        expect((await sandbox.redeliver(first.eventId)).status).toBe(200);
        expect(handled.filter((id) => id === first.eventId)).toHaveLength(1);
      });

      it('events without a handler are acknowledged with 200', async () => {
        const others = sandbox
          .deliveries()
          .filter((d) => d.type !== harness.webhook.paidEvent && d.status !== null);
        expect(others.length).toBeGreaterThan(0);
        expect(others.every((d) => d.status === 200)).toBe(true);
      });
    });
  });
}

/** The PDF's text, via poppler's `pdftotext` (Debian `poppler-utils`). */
function pdfText(pdf: Buffer): string {
  const dir = mkdtempSync(join(tmpdir(), 'tollgate-pdf-'));
  try {
    const file = join(dir, 'invoice.pdf');
    writeFileSync(file, pdf);
    return execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
