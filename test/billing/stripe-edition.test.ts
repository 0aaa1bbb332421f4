import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { createStripeSandbox, RETRY_DAYS, type StripeSandbox } from '@tollgate/sandbox/stripe';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authProvider } from '../../src/auth/provider.js';
import { User } from '../../src/auth/user.js';
import { UserModelKey, Users } from '../../src/auth/users.js';
import { sandboxCoupons, sandboxPlans } from '../../src/billing/gateway/stripe/catalog.js';
import { STRIPE_SANDBOX_WARNING } from '../../src/billing/gateway/stripe/embedded-sandbox.js';
import {
  Billable,
  BillingError,
  billingProvider,
  closeBilling,
  PaymentGatewayKey,
} from '../../src/billing/index.js';
import { defineConfig } from '../../src/config/index.js';
import { TestClock } from '../../src/core/clock.js';
import { createLogger } from '../../src/core/logger.js';
import { Application } from '../../src/kernel/application.js';
import { createTestApp, type TestApp } from '../support/app.js';
import { createTestDatabase } from '../support/database.js';
import { ANY_ENGINE, ENGINES } from '../support/engines.js';

class Customer extends Billable(User) {}

const plans = [{ id: 'basic-monthly', name: 'Basic', amount: 1000, interval: 'month' as const }];
const coupons = [{ id: 'HALF', percentOff: 50 }];
let seq = 0;
const newUser = (app: Application) =>
  app.container.make(Users).create<Customer>({
    name: `Stripe ${++seq}`,
    email: `stripe${seq}@example.com`,
    password: 'correct horse battery',
  });

describe.each(ENGINES)('Stripe edition specifics (%s)', (engine) => {
  const clock = new TestClock(new Date('2026-03-10T09:00:00Z'));
  let sandbox: StripeSandbox;
  let close: () => Promise<void>;
  let t: TestApp;

  beforeAll(async () => {
    sandbox = createStripeSandbox({
      clock,
      plans: sandboxPlans(plans, 'usd'),
      coupons: sandboxCoupons(coupons, 'usd'),
    });
    const running = await sandbox.listen(0);
    close = running.close;
    t = await createTestApp({
      engine,
      clock,
      config: {
        billing: {
          plans,
          coupons,
          stripe: { secret: 'sk_test_edition', webhookSecret: 'whsec_x', apiBase: running.url },
        },
      },
      providers: [authProvider(), billingProvider()],
      setup: (app) => {
        app.container.instance(UserModelKey, Customer);
      },
    });
  });

  afterAll(async () => {
    await t?.close();
    await close?.();
  });

  it('sends an idempotency key with every creating call, a fresh one per operation', async () => {
    const user = await newUser(t.app);
    const before = sandbox.requests.length;
    await user.newSubscription('main', 'basic-monthly').create('tok_visa');
    await user.charge(700);
    await user.invoiceFor('Extra', 300);
    const creating = sandbox.requests
      .slice(before)
      .filter(
        (r) =>
          r.method === 'POST' &&
          /^\/v1\/(customers|subscriptions|charges|invoiceitems|invoices)$/.test(r.path),
      );
    expect(creating.map((r) => r.path).sort()).toEqual(
      ['/v1/charges', '/v1/customers', '/v1/invoiceitems', '/v1/invoices', '/v1/subscriptions'].sort(),
    );
    for (const request of creating) expect(request.idempotencyKey).toMatch(/.{16,}/);
    expect(new Set(creating.map((r) => r.idempotencyKey)).size).toBe(creating.length);
  });

  it('maps the subscription onto the current API: items, discounts, default_tax_rates, error_if_incomplete', async () => {
    const user = await newUser(t.app);
    class Taxed extends Customer {
      override taxPercentage() {
        return 19.5;
      }
    }
    const taxed = t.app.container.make(Users).hydrate<Taxed>({ ...user, id: user.id } as never);
    Object.setPrototypeOf(taxed, Taxed.prototype);
    const before = sandbox.requests.length;
    await taxed.newSubscription('main', 'basic-monthly').quantity(2).withCoupon('HALF').create('tok_visa');
    const create = sandbox.requests
      .slice(before)
      .find((r) => r.method === 'POST' && r.path === '/v1/subscriptions')!;
    const params = create.params as Record<string, unknown>;
    expect(params.payment_behavior).toBe('error_if_incomplete');
    expect(params.items).toEqual([{ price: 'basic-monthly', quantity: '2' }]);
    expect(params.discounts).toEqual([{ coupon: 'HALF' }]);
    const [rate] = params.default_tax_rates as string[];
    expect(sandbox.store.taxRates.get(rate!)?.percentage).toBe(19.5);
    // 2 × $10.00, half off, plus 19.5% tax.
    const [invoice] = await taxed.invoices();
    expect(invoice?.total()).toBe('$11.95');
    expect(invoice?.taxPercentage()).toBe(19.5);
  });

  it('an invoice shows the percentage of the Tax Rate it names, retrieved once when this process did not make it', async () => {
    const user = await newUser(t.app);
    await user.updateCard('tok_visa');
    // A rate made elsewhere (another process, the dashboard): 8.25% of $10.00 is $0.825, billed $0.83.
    const stripe = new Stripe('sk_test_edition', {
      host: '127.0.0.1',
      port: Number(new URL(t.app.config.billing.stripe.apiBase!).port),
      protocol: 'http',
      maxNetworkRetries: 0,
    });
    const rate = await stripe.taxRates.create({ display_name: 'VAT', percentage: 8.25, inclusive: false });
    await stripe.subscriptions.create({
      customer: user.stripe_id!,
      items: [{ price: 'basic-monthly' }],
      default_tax_rates: [rate.id],
    });
    const before = sandbox.requests.length;
    const [invoice] = await user.invoices();
    expect(invoice?.tax()).toBe('$0.83');
    expect(invoice?.taxPercentage()).toBe(8.25);
    expect((await user.findInvoice(invoice!.id))?.taxPercentage()).toBe(8.25);
    const retrieved = sandbox.requests
      .slice(before)
      .filter((r) => r.method === 'GET' && r.path === `/v1/tax_rates/${rate.id}`);
    expect(retrieved).toHaveLength(1);
  });

  it('charge(amount, options) passes the options through and returns the Charge object', async () => {
    const user = await newUser(t.app);
    await user.updateCard('tok_visa');
    const charge = await user.charge(2500, { description: 'Extra seats', metadata: { order: '7' } });
    expect(charge).toMatchObject({ object: 'charge', amount: 2500, currency: 'usd', status: 'succeeded' });
    const stored = sandbox.store.charges.get(charge.id);
    expect(stored?.description).toBe('Extra seats');
    expect(stored?.metadata).toEqual({ order: '7' });
    expect(stored?.customer).toBe(user.stripe_id);
  });

  it('create(token, details) passes the details to customer creation', async () => {
    const user = await newUser(t.app);
    await user
      .newSubscription('main', 'basic-monthly')
      .create('tok_visa', { description: 'ACME Ltd', metadata: { crm: '42' } });
    const customer = sandbox.store.customers.get(user.stripe_id!);
    expect(customer?.description).toBe('ACME Ltd');
    expect(customer?.metadata).toEqual({ crm: '42' });
    expect(customer?.email).toBe(user.email);
  });

  it('upcomingInvoice() previews the next renewal', async () => {
    const user = await newUser(t.app);
    await user.newSubscription('main', 'basic-monthly').create('tok_visa');
    const upcoming = await user.upcomingInvoice();
    expect(upcoming?.total()).toBe('$10.00');
    expect(upcoming?.dateValue().getTime()).toBeGreaterThanOrEqual(clock.now().getTime());
  });

  it('a failed invoiceFor leaves the invoice open: among the pending invoices, not the paid ones', async () => {
    const user = await newUser(t.app);
    await user.updateCard('tok_chargeCustomerFail');
    const err = await user.invoiceFor('Consulting', 2000).then(
      () => undefined,
      (e: BillingError) => e,
    );
    expect(err?.code).toBe('card_declined');
    expect(err?.invoiceId).toMatch(/^in_/);
    expect((await user.invoices()).map((i) => i.id)).not.toContain(err!.invoiceId);
    const pending = (await user.invoicesIncludingPending()).find((i) => i.id === err!.invoiceId);
    expect(pending?.status()).toBe('open');
    expect(pending?.total()).toBe('$20.00');
  });

  it('a failed invoiceFor is retried by Stripe unless voided after the first failure', async () => {
    const provider = t.app.container.make(PaymentGatewayKey);
    const retried = await newUser(t.app);
    const voided = await newUser(t.app);
    const failures: Record<string, BillingError> = {};
    for (const user of [retried, voided]) {
      await user.updateCard('tok_chargeCustomerFail');
      failures[user.id] = await user.invoiceFor('Consulting', 5000).then(
        () => {
          throw new Error('expected a decline');
        },
        (err: BillingError) => err,
      );
      expect(failures[user.id]).toBeInstanceOf(BillingError);
    }
    await provider.voidInvoice(failures[voided.id]!.invoiceId!);
    const attempts = (invoiceId: string) => sandbox.store.invoices.get(invoiceId)!.attempt_count;
    expect(attempts(failures[retried.id]!.invoiceId!)).toBe(1);
    for (let day = 0; day <= RETRY_DAYS.at(-1)!; day++) await sandbox.advance(86_400);
    expect(attempts(failures[retried.id]!.invoiceId!)).toBeGreaterThanOrEqual(3);
    expect(attempts(failures[voided.id]!.invoiceId!)).toBe(1);
    expect(
      (await voided.invoicesIncludingPending())
        .find((i) => i.id === failures[voided.id]!.invoiceId)
        ?.status(),
    ).toBe('void');
  });

  it('the SDK the adapter uses is the official one, pointed at the sandbox', () => {
    const provider = t.app.container.make(PaymentGatewayKey) as unknown as { stripe: Stripe };
    expect(provider.stripe).toBeInstanceOf(Stripe);
  });
});

describe('billingProvider() with no Stripe secret', () => {
  it('runs the embedded sandbox in process, seeded from config, and logs that it does', async () => {
    const database = await createTestDatabase(ANY_ENGINE);
    const storagePath = mkdtempSync(join(tmpdir(), 'tollgate-embedded-'));
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk, _encoding, done) {
        lines.push(String(chunk));
        done();
      },
    });
    const app = await Application.create(
      defineConfig({ database: { url: database.url }, storagePath, billing: { plans, coupons } }),
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
      // One loud warning at boot; nothing listens until billing is used, so CLI commands open no port.
      const warnings = () => lines.filter((line) => line.includes(STRIPE_SANDBOX_WARNING));
      expect(warnings()).toHaveLength(1);
      expect(JSON.parse(warnings()[0]!)).toMatchObject({ level: 40 });
      expect(lines.join('')).not.toMatch(/"sandbox":"http/);
      const user = await newUser(app);
      const sub = await user.newSubscription('main', 'basic-monthly').withCoupon('HALF').create('tok_visa');
      expect(sub.providerId).toMatch(/^sub_/);
      expect((await user.invoices())[0]?.total()).toBe('$5.00');
      expect(lines.join('')).toMatch(/Embedded Stripe sandbox started/);
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
