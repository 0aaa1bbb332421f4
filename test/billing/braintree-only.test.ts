import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { type BraintreeSandbox, createBraintreeSandbox } from '@tollgate/sandbox/braintree';
import braintree from 'braintree';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { authProvider } from '../../src/auth/provider.js';
import { User } from '../../src/auth/user.js';
import { UserModelKey, Users } from '../../src/auth/users.js';
import { BraintreeWebhookController } from '../../src/billing/gateway/braintree/braintree-webhook-controller.js';
import { BRAINTREE_SANDBOX_WARNING } from '../../src/billing/gateway/braintree/embedded-sandbox.js';
import {
  BraintreePaymentGateway,
  createBraintreeGateway,
  sandboxDiscounts,
  sandboxPlans,
} from '../../src/billing/gateway/braintree/index.js';
import {
  Billable,
  BillingError,
  billingProvider,
  closeBilling,
  PaymentGatewayKey,
} from '../../src/billing/index.js';
import { reconcile } from '../../src/cli/commands/billing-reconcile.js';
import { defineConfig } from '../../src/config/index.js';
import { TestClock } from '../../src/core/clock.js';
import { ConfigurationError } from '../../src/core/errors.js';
import { createLogger } from '../../src/core/logger.js';
import { Application } from '../../src/kernel/application.js';
import { listen, type RunningServer } from '../../src/kernel/server.js';
import { createTestApp, type TestApp } from '../support/app.js';
import { createTestDatabase } from '../support/database.js';
import { ANY_ENGINE, ENGINES } from '../support/engines.js';

let taxPercentage = 0;
class Customer extends Billable(User) {
  override taxPercentage(): number {
    return taxPercentage;
  }
}

const disputes: unknown[] = [];
class Webhooks extends BraintreeWebhookController {
  async handleDisputeOpened(notification: unknown): Promise<void> {
    disputes.push(notification);
  }
}

const plans = [
  { id: 'basic-monthly', name: 'Basic', amount: '20.00', interval: 'month' as const },
  { id: 'pro-monthly', name: 'Pro', amount: '35.00', interval: 'month' as const },
  { id: 'pro-yearly', name: 'Pro (yearly)', amount: '200.00', interval: 'year' as const },
];
const coupons = [{ id: 'LAUNCH20', percentOff: 20 }];
const DAY = 86_400;
let seq = 0;
const newUser = (app: Application) =>
  app.container.make(Users).create<Customer>({
    name: `Brain Tree ${++seq}`,
    email: `braintree${seq}@example.com`,
    password: 'correct horse battery',
  });

describe.each(ENGINES)('Braintree edition specifics (%s)', (engine) => {
  const clock = new TestClock(new Date('2026-03-10T09:00:00Z'));
  let sandbox: BraintreeSandbox;
  let close: () => Promise<void>;
  let t: TestApp;
  let server: RunningServer;

  beforeAll(async () => {
    sandbox = createBraintreeSandbox({
      clock,
      plans: sandboxPlans(plans, 'usd'),
      discounts: sandboxDiscounts(coupons, 'usd'),
    });
    const running = await sandbox.listen(0);
    close = running.close;
    const { merchantId, publicKey, privateKey } = sandbox.credentials;
    t = await createTestApp({
      engine,
      clock,
      config: {
        billing: {
          edition: 'braintree',
          plans,
          coupons,
          braintree: { environment: 'sandbox', merchantId, publicKey, privateKey, apiBase: running.url },
        },
      },
      providers: [authProvider(), billingProvider()],
      setup: (app) => {
        app.container.instance(UserModelKey, Customer);
        app.router.post('/braintree/webhook', [Webhooks, 'handle']);
      },
    });
    server = await listen(t.app, '127.0.0.1', 0);
    sandbox.setWebhook(`${server.url}/braintree/webhook`);
  });

  afterAll(async () => {
    await server?.close();
    await t?.close();
    await close?.();
  });

  afterEach(async () => {
    taxPercentage = 0;
    await sandbox.webhooks.settled();
  });

  /** Moves the sandbox's clock, then waits for the notifications that caused. */
  const advance = async (seconds: number) => {
    await sandbox.advance(seconds);
    await sandbox.webhooks.settled();
  };

  const reload = async (user: Customer) => (await t.app.container.make(Users).find<Customer>(user.id))!;
  const lastCreate = (since: number) =>
    sandbox.requests
      .slice(since)
      .filter((r) => r.operation === 'subscription.create')
      .map((r) => r.params.subscription as Record<string, unknown>)
      .at(-1);
  const sales = (customerId: string) =>
    [...sandbox.store.transactions.values()]
      .filter((tr) => tr.customerId === customerId)
      .map((tr) => tr.amount);

  it('the adapter is the official SDK, configured from billing.braintree at boot', () => {
    const provider = t.app.container.make(PaymentGatewayKey) as BraintreePaymentGateway;
    expect(provider).toBeInstanceOf(BraintreePaymentGateway);
    expect(provider.gateway).toBeInstanceOf(braintree.BraintreeGateway);
    expect(provider.gateway.config.merchantId).toBe(sandbox.credentials.merchantId);
    expect(provider.gateway.config.publicKey).toBe(sandbox.credentials.publicKey);
  });

  it('PayPal: the nonce vaults a PayPal account, stored as paypal_email; updateCard moves subscriptions to the card', async () => {
    const user = await newUser(t.app);
    await user.newSubscription('main', 'basic-monthly').create('fake-paypal-billing-agreement-nonce');
    const fresh = await reload(user);
    expect(fresh.paypal_email).toBe('jane.doe@paypal.com');
    expect(fresh.card_brand).toBeNull();
    expect(fresh.card_last_four).toBeNull();
    expect(fresh.hasCardOnFile()).toBe(true);
    const charged = [...sandbox.store.transactions.values()].filter(
      (tr) => tr.customerId === fresh.braintree_id,
    );
    expect(charged.map((tr) => [tr.amount, tr.instrument.kind])).toEqual([[2000, 'paypal_account']]);

    await fresh.updateCard('fake-valid-visa-nonce');
    const carded = await reload(user);
    expect([carded.card_brand, carded.card_last_four, carded.paypal_email]).toEqual(['Visa', '1881', null]);
    const sub = (await carded.subscription('main'))!;
    const remote = sandbox.store.subscriptions.get(sub.providerId)!;
    expect(remote.paymentMethodToken).toBe(sandbox.store.customers.get(carded.braintree_id!)?.defaultToken);
    expect(sandbox.store.paymentMethods.get(remote.paymentMethodToken)?.kind).toBe('credit_card');
  });

  it('payment_method_revoked_by_customer: the revoked PayPal account leaves the user; the card left is the one on file, however often it is delivered', async () => {
    const user = await newUser(t.app);
    await user.newSubscription('main', 'basic-monthly').create('fake-valid-nonce');
    await user.updateCard('fake-paypal-billing-agreement-nonce');
    const customerId = (await reload(user)).braintree_id!;
    expect((await reload(user)).paypal_email).toBe('jane.doe@paypal.com');
    const paypal = sandbox.store.customers.get(customerId)!.defaultToken!;
    await sandbox.revokePaymentMethod(paypal);
    await sandbox.webhooks.settled();
    const fresh = await reload(user);
    expect([fresh.paypal_email, fresh.card_brand, fresh.card_last_four]).toEqual([null, 'Visa', '1111']);
    // The customer adds a new PayPal account; a copy of the old notice delivered again changes nothing,
    // and a later notice applies the customer as Braintree has it now (fetched, not the payload).
    await fresh.updateCard('fake-paypal-future-nonce');
    const revoked = sandbox.deliveries.find(
      (d) => d.kind === 'payment_method_revoked_by_customer' && d.subjectId === paypal,
    )!;
    const late = await fetch(`${server.url}/braintree/webhook`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ bt_signature: revoked.btSignature, bt_payload: revoked.btPayload }),
    });
    expect(late.status).toBe(200);
    expect((await reload(user)).paypal_email).toBe('jane.doe@paypal.com');
    const updated = await sandbox.notify('payment_method_customer_data_updated', paypal);
    expect(updated.status).toBe(200);
    expect((await reload(user)).paypal_email).toBe('jane.doe@paypal.com');
  });

  it('monthly ↔ yearly swap: a new subscription with plan-credit worth the unused value, set each time', async () => {
    const user = await newUser(t.app);
    const sub = await user.newSubscription('main', 'basic-monthly').create('fake-valid-nonce');
    const monthlyId = sub.providerId;
    await advance(10 * DAY);

    // Paid 20.00 for Mar 10 – Apr 9 (31 days); 21 days (Mar 20 – Apr 9) unused: 20.00 × 21/31 = 13.55.
    let since = sandbox.requests.length;
    await sub.swap('pro-yearly');
    expect(lastCreate(since)?.discounts).toEqual({
      add: [
        { inheritedFromId: 'plan-credit', amount: '13.55', numberOfBillingCycles: 1, neverExpires: false },
      ],
    });
    expect(sub.plan).toBe('pro-yearly');
    expect(sub.providerId).not.toBe(monthlyId);
    expect(sandbox.store.subscriptions.get(monthlyId)?.status).toBe('Canceled');
    expect(sandbox.store.subscriptions.get(sub.providerId)?.billingFrequency).toBe(12);
    expect(sales(user.braintree_id ?? (await reload(user)).braintree_id!)).toEqual([2000, 20_000 - 1355]);
    expect(await user.subscribed('main', 'pro-yearly')).toBe(true);
    expect(sub.cancelled()).toBe(false);
    const [invoice] = await user.invoices();
    expect(invoice?.hasDiscount()).toBe(true);
    expect(invoice?.total()).toBe('$186.45');

    await advance(65 * DAY);
    // Mar 20 2026 – Mar 19 2027 (365 days) cost 200.00: 186.45 paid and 13.55 of credit. May 24 –
    // Mar 19 is 300 days unused: 200.00 × 300/365 = 164.38, more than a month's 20.00, so spread
    // over 9 cycles of 18.26 (rounded down).
    since = sandbox.requests.length;
    const yearlyId = sub.providerId;
    await sub.swap('basic-monthly');
    expect(lastCreate(since)?.discounts).toEqual({
      add: [
        { inheritedFromId: 'plan-credit', amount: '18.26', numberOfBillingCycles: 9, neverExpires: false },
      ],
    });
    expect(sandbox.store.subscriptions.get(yearlyId)?.status).toBe('Canceled');
    expect(sales((await reload(user)).braintree_id!)).toEqual([2000, 18_645, 2000 - 1826]);
    expect((await user.subscription('main'))?.plan).toBe('basic-monthly');
    expect(await user.subscribed('main')).toBe(true);
  });

  it('a monthly → yearly swap whose cancel of the old subscription fails: a retry reuses the replacement, reconcile --fix finishes it; billed once', async () => {
    const bt = (t.app.container.make(PaymentGatewayKey) as BraintreePaymentGateway).gateway;
    /** A user on monthly whose swap to yearly made the replacement, then failed to cancel the old one. */
    const halfSwapped = async () => {
      const user = await newUser(t.app);
      const sub = await user.newSubscription('main', 'basic-monthly').create('fake-valid-nonce');
      const cancel = vi.spyOn(bt.subscription, 'cancel').mockRejectedValueOnce(new Error('socket hang up'));
      try {
        await expect(sub.swap('pro-yearly')).rejects.toThrow('subscription.cancel failed');
      } finally {
        cancel.mockRestore();
      }
      const old = sub.providerId;
      expect(sandbox.store.subscriptions.get(old)?.status).toBe('Active');
      expect(sandbox.store.subscriptions.get(`${old}-r1`)).toMatchObject({
        status: 'Active',
        planId: 'pro-yearly',
      });
      const paid = sales((await reload(user)).braintree_id!);
      expect(paid).toHaveLength(2);
      return { user, old, paid };
    };

    // The customer retries: Braintree refuses a second subscription of the replacement's id, so the
    // swap takes the one it made and cancels the old one.
    const a = await halfSwapped();
    const retried = (await a.user.subscription('main'))!;
    await retried.swap('pro-yearly');
    expect(retried.providerId).toBe(`${a.old}-r1`);
    expect(sandbox.store.subscriptions.get(a.old)?.status).toBe('Canceled');
    expect(sales((await reload(a.user)).braintree_id!)).toEqual(a.paid);
    expect(await a.user.subscribed('main', 'pro-yearly')).toBe(true);

    // Nobody retries: reconcile reports the half-done swap and --fix finishes it.
    const b = await halfSwapped();
    const lines: string[] = [];
    expect(await reconcile(t.app, { user: b.user.email, json: true }, (l) => lines.push(l))).toBe(1);
    expect(JSON.parse(lines[0]!).drift).toMatchObject([
      { kind: 'replaced', providerId: `${b.old}-r1`, fixed: false },
    ]);
    expect(await reconcile(t.app, { user: b.user.email, fix: true }, () => {})).toBe(0);
    expect(sandbox.store.subscriptions.get(b.old)?.status).toBe('Canceled');
    expect(await b.user.subscription('main')).toMatchObject({
      providerId: `${b.old}-r1`,
      plan: 'pro-yearly',
    });
    expect(sales((await reload(b.user)).braintree_id!)).toEqual(b.paid);
    expect(await reconcile(t.app, { user: b.user.email }, () => {})).toBe(0);
  });

  it('same-frequency swap updates the subscription in place and keeps the tax in the price', async () => {
    taxPercentage = 10;
    const user = await newUser(t.app);
    const sub = await user
      .newSubscription('main', 'basic-monthly')
      .withCoupon('LAUNCH20')
      .create('fake-valid-nonce');
    const id = sub.providerId;
    expect(sandbox.store.subscriptions.get(id)?.price).toBe(2200);
    await sub.swap('pro-monthly');
    const remote = sandbox.store.subscriptions.get(id)!;
    expect(sub.providerId).toBe(id);
    expect(remote.planId).toBe('pro-monthly');
    // 35.00 + 10% tax; the 20% coupon re-priced on it.
    expect(remote.price).toBe(3850);
    expect(remote.discounts.map((d) => [d.id, d.amount])).toEqual([['LAUNCH20', 770]]);
  });

  it('a past-due subscription is not re-priced: swaps and tax changes answer subscription_past_due (422), nothing changes', async () => {
    const user = await newUser(t.app);
    const sub = await user.newSubscription('main', 'basic-monthly').create('fake-valid-nonce');
    await user.updateCard('fake-processor-declined-visa-nonce');
    await advance(31 * DAY);
    const remote = sandbox.store.subscriptions.get(sub.providerId)!;
    expect(remote.status).toBe('Past Due');
    const count = sandbox.store.subscriptions.size;
    for (const change of [() => sub.swap('pro-monthly'), () => sub.swap('pro-yearly')]) {
      const err = await change().then(
        () => null,
        (e: unknown) => e,
      );
      expect(err).toBeInstanceOf(BillingError);
      expect([(err as BillingError).code, (err as BillingError).status]).toEqual([
        'subscription_past_due',
        422,
      ]);
      expect((err as BillingError).message).toMatch(/past-due subscription/);
    }
    taxPercentage = 10;
    await expect(sub.syncTaxPercentage()).rejects.toMatchObject({ code: 'subscription_past_due' });
    expect([remote.planId, remote.price, sandbox.store.subscriptions.size]).toEqual([
      'basic-monthly',
      2000,
      count,
    ]);
    const local = (await reload(user).then((u) => u.subscription('main')))!;
    expect([local.plan, local.providerId, local.status]).toEqual([
      'basic-monthly',
      sub.providerId,
      'past_due',
    ]);
  });

  it('syncTaxPercentage() re-prices the subscription: no charge now, a cancellation stays', async () => {
    const user = await newUser(t.app);
    const sub = await user
      .newSubscription('main', 'basic-monthly')
      .withCoupon('LAUNCH20')
      .create('fake-valid-nonce');
    await sub.cancel();
    taxPercentage = 8.25;
    await sub.syncTaxPercentage();
    const remote = sandbox.store.subscriptions.get(sub.providerId)!;
    // 20.00 + 8.25% = 21.65; the 20% coupon follows it (4.33).
    expect([remote.price, remote.discounts[0]?.amount]).toEqual([2165, 433]);
    expect(remote.numberOfBillingCycles).toBe(1);
    expect(sales((await reload(user)).braintree_id!)).toEqual([1600]);
    expect(sub.onGracePeriod()).toBe(true);
  });

  it('a sale never recorded at issue (made before the record existed) is read from the current terms', async () => {
    taxPercentage = 10;
    const user = await newUser(t.app);
    const sub = await user.newSubscription('main', 'basic-monthly').create('fake-valid-nonce');
    // Its subscription_charged_successfully, delivered late, would record the charge again.
    await sandbox.webhooks.settled();
    const [issued] = await user.invoices();
    expect([issued?.total(), issued?.taxPercentage()]).toEqual(['$22.00', 10]);
    // As for a transaction from before billing_issued_invoices: no record of it.
    await t.app.db.deleteFrom('billing_issued_invoices').where('provider_id', '=', issued!.id).execute();
    await sub.swap('pro-monthly');
    const legacy = await user.findInvoice(issued!.id);
    // Its amount is Braintree's; plan and tax come from the subscription as it is now.
    expect(legacy?.total()).toBe('$22.00');
    expect(legacy?.taxPercentage()).toBe(10);
    expect(legacy?.subscriptionLines()[0]?.description).toBe('Pro');
    // The swap's prorated charge was recorded when it was made.
    const recorded = await t.app.db.selectFrom('billing_issued_invoices').selectAll().execute();
    const proration = recorded.find((r) => r.subscription_id === sub.providerId);
    expect(proration).toMatchObject({ plan: 'pro-monthly', plan_name: 'Pro', tax_rate: 1000 });
  });

  it('quantities are not a Braintree feature: a clear unsupported_by_edition error naming it', async () => {
    const user = await newUser(t.app);
    const err = await user
      .newSubscription('main', 'basic-monthly')
      .quantity(3)
      .create('fake-valid-nonce')
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BillingError);
    expect((err as BillingError).code).toBe('unsupported_by_edition');
    expect((err as BillingError).message).toBe(
      'Subscription quantities is not supported by the braintree edition.',
    );
    const sub = await user.newSubscription('main', 'basic-monthly').create('fake-valid-nonce');
    for (const op of [
      () => sub.incrementQuantity(),
      () => sub.decrementQuantity(),
      () => sub.updateQuantity(2),
    ]) {
      await expect(op()).rejects.toMatchObject({ code: 'unsupported_by_edition' });
    }
    const provider = t.app.container.make(PaymentGatewayKey);
    await expect(
      provider.updateSubscription(sub.providerId, { quantity: 2, idempotencyKey: 'k' }),
    ).rejects.toThrow(/braintree edition/);
  });

  it('cancel() in a trial cancels at Braintree; resume() re-creates it billing at the trial end', async () => {
    const user = await newUser(t.app);
    const sub = await user.newSubscription('main', 'basic-monthly').trialDays(10).create('fake-valid-nonce');
    const first = sub.providerId;
    await sub.cancel();
    expect(sandbox.store.subscriptions.get(first)?.status).toBe('Canceled');
    expect(sub.onGracePeriod() && sub.ends_at === sub.trial_ends_at).toBe(true);
    await advance(2 * DAY);
    await sub.resume();
    expect(sub.providerId).not.toBe(first);
    const remote = sandbox.store.subscriptions.get(sub.providerId)!;
    expect(remote.firstBillingDate).toBe(sub.trial_ends_at?.slice(0, 10));
    expect(sales((await reload(user)).braintree_id!)).toEqual([]);
    await advance(9 * DAY);
    expect(sales((await reload(user)).braintree_id!)).toEqual([2000]);
    expect(await user.subscribed('main')).toBe(true);
  });

  it('swap() in the grace period of a cancelled trial resumes it (a new subscription) and swaps that one', async () => {
    const user = await newUser(t.app);
    const sub = await user.newSubscription('main', 'basic-monthly').trialDays(10).create('fake-valid-nonce');
    const first = sub.providerId;
    await sub.cancel();
    await sub.swap('pro-monthly');
    expect(sub.providerId).not.toBe(first);
    expect(sub.cancelled()).toBe(false);
    expect(sub.onTrial()).toBe(true);
    const remote = sandbox.store.subscriptions.get(sub.providerId)!;
    expect([remote.planId, remote.status, remote.trialPeriod]).toEqual(['pro-monthly', 'Active', true]);
    expect(sales((await reload(user)).braintree_id!)).toEqual([]);
  });

  it('cancel() after paying caps the cycles; Braintree expires it at period end (subscription_expired)', async () => {
    const user = await newUser(t.app);
    const sub = await user.newSubscription('main', 'basic-monthly').create('fake-valid-nonce');
    await sub.cancel();
    const remote = sandbox.store.subscriptions.get(sub.providerId)!;
    expect(remote.numberOfBillingCycles).toBe(1);
    expect(sub.ends_at).toBe(`${remote.nextBillingDate}T00:00:00.000Z`);
    const upcoming = await user.upcomingInvoice('main');
    expect(upcoming).toBeUndefined();
    await advance(32 * DAY);
    expect(remote.status).toBe('Expired');
    const expired = sandbox.deliveries.filter(
      (d) => d.kind === 'subscription_expired' && d.subjectId === remote.id,
    );
    // At least once: a duplicate delivery is acknowledged too.
    expect(expired.length).toBeGreaterThan(0);
    expect(expired.every((d) => d.status === 200)).toBe(true);
    expect(await user.subscribed('main')).toBe(false);
    expect(sales((await reload(user)).braintree_id!)).toEqual([2000]);
  });

  it('upcomingInvoice() previews the next charge: coupon and tax included', async () => {
    taxPercentage = 10;
    const user = await newUser(t.app);
    const sub = await user
      .newSubscription('main', 'basic-monthly')
      .withCoupon('LAUNCH20')
      .create('fake-valid-nonce');
    const upcoming = await user.upcomingInvoice();
    // 20.00 + 10% = 22.00, less 20% = 17.60.
    expect(upcoming?.total()).toBe('$17.60');
    expect(upcoming?.taxPercentage()).toBe(10);
    const next = sandbox.store.subscriptions.get(sub.providerId)?.nextBillingDate;
    expect(upcoming?.dateValue().toISOString()).toBe(`${next}T00:00:00.000Z`);
    expect(upcoming?.dateValue().getTime()).toBeGreaterThan(clock.now().getTime());
    expect(upcoming?.paid()).toBe(false);
  });

  it('charge() takes the full currency unit: cents as decimals, a fraction of a cent refused', async () => {
    const user = await newUser(t.app);
    await user.updateCard('fake-valid-nonce');
    await expect(user.charge(10.555)).rejects.toMatchObject({ code: 'invalid_amount' });
    const sent = sandbox.requests.length;
    const charge = await user.charge(0.99, { customFields: { note: 'tip' } });
    const sale = sandbox.requests.slice(sent).find((r) => r.operation === 'transaction.sale');
    const params = sale?.params.transaction as Record<string, unknown> | undefined;
    expect(params?.amount).toBe('0.99');
    expect(params && 'currency' in params).toBe(false);
    expect(charge).toMatchObject({ amount: '0.99', customFields: { note: 'tip' } });
  });

  it('dispute_opened is dispatched to handleDisputeOpened(notification)', async () => {
    const user = await newUser(t.app);
    await user.updateCard('fake-valid-nonce');
    const charge = await user.charge(12.5, { orderId: 'order-7' });
    expect(charge).toMatchObject({ amount: '12.50', orderId: 'order-7', status: 'submitted_for_settlement' });
    const delivery = await sandbox.notify('dispute_opened', 'dp_1', { transactionId: charge.id });
    expect(delivery.status).toBe(200);
    const notification = disputes.at(-1) as {
      kind: string;
      dispute: { status: string; transaction: { id: string } };
    };
    expect(notification.kind).toBe('dispute_opened');
    expect(notification.dispute.status).toBe('open');
    expect(notification.dispute.transaction.id).toBe(charge.id);
  });

  it('a declined one-off charge and invoiceFor are final at Braintree (uncollectible, never retried)', async () => {
    const user = await newUser(t.app);
    await user.updateCard('fake-processor-declined-visa-nonce');
    const err = (await user.invoiceFor('Consulting', 20).catch((e: unknown) => e)) as BillingError;
    expect(err.code).toBe('card_declined');
    expect(err.providerCode).toBe('2000');
    expect(err.message).toBe('The payment was declined: Do Not Honor.');
    const pending = (await user.invoicesIncludingPending()).find((i) => i.id === err.invoiceId);
    expect(pending?.status()).toBe('uncollectible');
    expect(pending?.lines().map((l) => l.description)).toEqual(['Consulting']);
    await advance(20 * DAY);
    expect(sales((await reload(user)).braintree_id!)).toEqual([2000]);
  });
});

describe('Braintree gateway configuration', () => {
  it('applies environment, merchant id and keys to the SDK; an unknown environment is refused', () => {
    const gateway = createBraintreeGateway({
      environment: 'production',
      merchantId: 'm1',
      publicKey: 'pub',
      privateKey: 'priv',
    });
    expect(gateway.config.environment).toBe(braintree.Environment.Production);
    expect([gateway.config.merchantId, gateway.config.publicKey, gateway.config.privateKey]).toEqual([
      'm1',
      'pub',
      'priv',
    ]);
    expect(() =>
      createBraintreeGateway({ environment: 'moon', merchantId: 'm', publicKey: 'p', privateKey: 'k' }),
    ).toThrow(ConfigurationError);
  });

  it('verifyCard: a processor-declined card is refused when vaulted', async () => {
    const clock = new TestClock(new Date('2026-03-10T09:00:00Z'));
    const sandbox = createBraintreeSandbox({ clock });
    const running = await sandbox.listen(0);
    try {
      const provider = new BraintreePaymentGateway({
        gateway: new braintree.BraintreeGateway(sandbox.gatewayConfig(running)),
        clock,
        verifyCard: true,
      });
      const err = (await provider
        .createCustomer({
          token: 'fake-processor-declined-visa-nonce',
          email: 'a@example.com',
          name: 'A B',
          details: {},
          idempotencyKey: 'k',
        })
        .catch((e: unknown) => e)) as BillingError;
      expect(err.code).toBe('card_declined');
      expect(err.providerCode).toBe('2000');
      expect(sandbox.store.customers.size).toBe(0);
    } finally {
      await running.close();
    }
  });
});

describe('billingProvider() with no Braintree credentials', () => {
  it('runs the embedded sandbox in process, seeded from config, and logs that it does', async () => {
    const database = await createTestDatabase(ANY_ENGINE);
    const storagePath = mkdtempSync(join(tmpdir(), 'tollgate-embedded-bt-'));
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk, _encoding, done) {
        lines.push(String(chunk));
        done();
      },
    });
    const app = await Application.create(
      defineConfig({
        database: { url: database.url },
        storagePath,
        // The reference config's amounts are minor units: 900 → "9.00" at Braintree.
        billing: {
          edition: 'braintree',
          plans: [{ id: 'basic-monthly', name: 'Basic', amount: 900, interval: 'month' }],
          coupons: [{ id: 'HALF', percentOff: 50 }],
        },
      }),
      {
        clock: new TestClock(new Date('2026-05-01T00:00:00Z')),
        logger: createLogger('info', sink),
        providers: [authProvider(), billingProvider()],
      },
    );
    try {
      app.container.instance(UserModelKey, Customer);
      await app.migrate();
      await app.boot();
      const warnings = () => lines.filter((line) => line.includes(BRAINTREE_SANDBOX_WARNING));
      expect(warnings()).toHaveLength(1);
      expect(JSON.parse(warnings()[0]!)).toMatchObject({ level: 40 });
      const user = await newUser(app);
      const sub = await user
        .newSubscription('main', 'basic-monthly')
        .withCoupon('HALF')
        .create('fake-valid-nonce');
      expect(sub.providerId).toBeTruthy();
      expect((await user.invoices())[0]?.total()).toBe('$4.50');
      expect(lines.join('')).toMatch(/Embedded Braintree sandbox started/);
      expect(lines.join('')).toMatch(/"sandbox":"http:\/\/127\.0\.0\.1:\d+"/);
      expect(warnings()).toHaveLength(1);
    } finally {
      await closeBilling(app);
      await app.close();
      await database.drop();
      rmSync(storagePath, { recursive: true, force: true });
    }
  });
});

describe('tollgate sandbox:braintree', () => {
  it('serves the sandbox alone; the official SDK talks to it with the printed keys; SIGTERM stops it', async () => {
    // Node itself with tsx's loader, so the signal reaches the command (npx would not forward it).
    const args = ['--import', 'tsx', 'src/cli/main.ts', 'sandbox:braintree', '--port', '0'];
    const child = spawn(process.execPath, args, {
      // No application module: the command falls back to the config file and environment.
      env: { ...process.env, TOLLGATE_APP: join(tmpdir(), 'no-such-app.ts') },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
    });
    try {
      const deadline = Date.now() + 30_000;
      while (!/Point Tollgate at it/.test(out) && Date.now() < deadline && child.exitCode === null) {
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      const url = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(out)?.[1];
      const keys = /merchant_id=(\S+) public_key=(\S+) private_key=(\S+)/.exec(out);
      expect(url).toBeTruthy();
      expect(out).toMatch(/plans: monthly, yearly; discounts: plan-credit/);
      const gateway = createBraintreeGateway({
        environment: 'sandbox',
        merchantId: keys?.[1] ?? '',
        publicKey: keys?.[2] ?? '',
        privateKey: keys?.[3] ?? '',
        apiBase: url,
      });
      const created = await gateway.customer.create({ paymentMethodNonce: 'fake-valid-nonce' });
      expect(created.success).toBe(true);
      expect(created.customer.paymentMethods?.[0]).toMatchObject({ last4: '1111' });
    } finally {
      child.kill('SIGTERM');
      if (child.exitCode === null) await once(child, 'exit');
    }
    expect(out).toMatch(/SIGTERM: stopping the Braintree sandbox/);
  }, 60_000);
});
