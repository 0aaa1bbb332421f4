import { execFileSync } from 'node:child_process';
import { createStripeSandbox } from '@tollgate/sandbox/stripe';
import type { MiddlewareHandler } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authProvider } from '../../src/auth/provider.js';
import { User } from '../../src/auth/user.js';
import { UserModelKey, Users } from '../../src/auth/users.js';
import { sandboxPlans } from '../../src/billing/gateway/stripe/catalog.js';
import { Billable, billingProvider, closeBilling, InvoiceController } from '../../src/billing/index.js';
import { TestClock } from '../../src/core/clock.js';
import { createTestApp, type TestApp } from '../support/app.js';
import { ANY_ENGINE } from '../support/engines.js';

class Customer extends Billable(User) {}

describe('GET /user/invoice/{invoice} (spec, "Invoice download")', () => {
  const plans = [{ id: 'basic-monthly', name: 'Basic', amount: 1200, interval: 'month' as const }];
  const clock = new TestClock(new Date('2026-02-01T10:00:00Z'));
  let t: TestApp;
  let stop: () => Promise<void>;
  let owner: Customer;
  let stranger: Customer;

  beforeAll(async () => {
    const sandbox = createStripeSandbox({ clock, plans: sandboxPlans(plans, 'usd') });
    const running = await sandbox.listen(0);
    stop = running.close;
    t = await createTestApp({
      engine: ANY_ENGINE,
      clock,
      config: {
        app: { name: 'Acme Billing' },
        billing: { plans, stripe: { secret: 'sk_test_route', apiBase: running.url } },
      },
      providers: [authProvider(), billingProvider()],
      setup: (app) => {
        app.container.instance(UserModelKey, Customer);
        const users = app.container.make(Users);
        // Stands in for the session + `auth` middleware: the user named by a header is signed in.
        const auth: MiddlewareHandler = async (c, next) => {
          const id = Number(c.req.header('x-test-user'));
          if (id) c.set('user', await users.find(id));
          await next();
        };
        app.router.get('/user/invoice/{invoice}', [InvoiceController, 'show']).middleware(auth);
      },
    });
    const users = t.app.container.make(Users);
    owner = await users.create<Customer>({
      name: 'Owner',
      email: 'owner@example.com',
      password: 'correct horse battery',
    });
    stranger = await users.create<Customer>({
      name: 'Other',
      email: 'other@example.com',
      password: 'correct horse battery',
    });
    await owner.newSubscription('main', 'basic-monthly').create('tok_visa');
    await stranger.updateCard('tok_visa');
  });

  afterAll(async () => {
    await closeBilling(t.app);
    await t.close();
    await stop();
  });

  it("downloads the signed-in user's invoice as a PDF", async () => {
    const [invoice] = await owner.invoices();
    const response = await t.request(`/user/invoice/${invoice!.id}`, {
      headers: { 'x-test-user': String(owner.id) },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/pdf');
    const text = execFileSync('pdftotext', ['-', '-'], {
      input: Buffer.from(await response.arrayBuffer()),
    }).toString();
    // No billing.seller name configured: the seller is app.name; the card on file is named.
    expect(text).toContain('Acme Billing');
    expect(text).toContain('$12.00');
    expect(text).toContain('PAID');
    expect(text).toContain('Payment method: Visa ending in 4242');
    expect(text).toContain('Bill to: Owner <owner@example.com>');
  });

  it("answers 404 for another user's invoice and 401 without a user", async () => {
    const [invoice] = await owner.invoices();
    const other = await t.request(`/user/invoice/${invoice!.id}`, {
      headers: { 'x-test-user': String(stranger.id), accept: 'application/json' },
    });
    expect(other.status).toBe(404);
    expect(await other.json()).toEqual({
      message: `No invoice "${invoice!.id}" belongs to this user.`,
      code: 'invoice_not_found',
    });
    const anonymous = await t.request(`/user/invoice/${invoice!.id}`, {
      headers: { accept: 'application/json' },
    });
    expect(anonymous.status).toBe(401);
  });

  it("shows a browser the site's 404 page, not the JSON body", async () => {
    const [invoice] = await owner.invoices();
    const other = await t.request(`/user/invoice/${invoice!.id}`, {
      headers: { 'x-test-user': String(stranger.id), accept: 'text/html,application/xhtml+xml' },
    });
    expect(other.status).toBe(404);
    expect(other.headers.get('content-type')).toMatch(/^text\/html/);
    const page = await other.text();
    expect(page.startsWith('<!DOCTYPE html>')).toBe(true);
    expect(page).toContain(`No invoice &quot;${invoice!.id}&quot; belongs to this user.`);
  });
});
