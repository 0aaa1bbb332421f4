import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createStripeSandbox } from '@tollgate/sandbox/stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../app/bootstrap.js';
import { referenceConfig } from '../../app/config.js';
import type { PlanConfig } from '../../src/billing/config.js';
import { sandboxPlans } from '../../src/billing/gateway/stripe/catalog.js';
import { TestClock } from '../../src/core/clock.js';
import { createLogger } from '../../src/core/logger.js';
import type { Application } from '../../src/kernel/application.js';
import { Browser, tokenIn } from '../auth/browser.js';
import type { TestApp } from '../support/app.js';
import { createTestDatabase, type TestDatabase } from '../support/database.js';
import { ENGINES } from '../support/engines.js';

// The reference app on its embedded Stripe sandbox: the subscribe form posted twice at once.
describe.each(ENGINES)('the billing page: a double-posted subscribe form (%s)', (engine) => {
  let app: Application;
  let database: TestDatabase;
  let storagePath: string;
  let browser: Browser;
  let sandbox: ReturnType<typeof createStripeSandbox>;
  let server: Awaited<ReturnType<typeof sandbox.listen>>;
  const clock = new TestClock(new Date('2026-01-15T12:00:00Z'));

  beforeAll(async () => {
    database = await createTestDatabase(engine);
    // The app's own plans, in a sandbox this test can look into (no webhook: none is needed here).
    const { plans, currency } = { plans: referenceConfig.billing!.plans as PlanConfig[], currency: 'usd' };
    sandbox = createStripeSandbox({ clock, plans: sandboxPlans(plans, currency) });
    server = await sandbox.listen(0, '127.0.0.1');
    storagePath = mkdtempSync(join(tmpdir(), 'tollgate-double-'));
    app = await createApp(
      {
        app: { env: 'test', url: 'http://localhost' },
        database: { url: database.url },
        storagePath,
        routes: { cachePath: join(storagePath, 'routes.json') },
        billing: {
          edition: 'stripe',
          currency,
          stripe: { key: 'pk_test_x', secret: 'sk_test_page', webhookSecret: 'whsec_x', apiBase: server.url },
        },
      },
      { clock, logger: createLogger('silent') },
    );
    await app.migrate();
    await app.boot();
    const transport = {
      request: (path: string, init?: RequestInit) =>
        app.fetch(new Request(new URL(path, 'http://localhost'), init)),
    };
    browser = new Browser(transport as unknown as TestApp);
    const res = await browser.submit('/register', {
      name: 'Ada',
      email: 'ada@example.com',
      password: 'correct horse battery',
      password_confirmation: 'correct horse battery',
    });
    expect(res.status).toBe(302);
    // Signing up does not sign in: log in.
    const login = await browser.submit('/login', {
      email: 'ada@example.com',
      password: 'correct horse battery',
    });
    expect(login.status).toBe(302);
  }, 60_000);

  afterAll(async () => {
    await app?.close();
    await server?.close();
    await database?.drop();
    rmSync(storagePath, { recursive: true, force: true });
  });

  const subscriptions = () => app.db.selectFrom('subscriptions').selectAll().execute();

  it('subscribes once: one provider subscription, one row, both posts answer the same', async () => {
    const page = await (await browser.get('/dashboard/billing')).text();
    const requestKey = /name="request_key" value="([^"]+)"/.exec(page)?.[1];
    expect(requestKey).toBeTruthy();
    const plan = app.config.billing.plans[0]!.id;
    const form = { _token: tokenIn(page), request_key: requestKey!, plan, token: 'tok_visa' };
    const responses = await Promise.all([
      browser.post('/dashboard/billing/subscribe', form),
      browser.post('/dashboard/billing/subscribe', form),
    ]);
    expect(responses.map((r) => r.status)).toEqual([303, 303]);
    const rows = await subscriptions();
    expect(rows).toHaveLength(1);
    const after = await (await browser.get('/dashboard/billing')).text();
    expect(after).not.toContain('already has a live subscription');
    expect(sandbox.store.customers.size).toBe(1);
    expect([...sandbox.store.subscriptions.keys()]).toEqual([rows[0]!.stripe_id]);
    // A new render is a new key: a second subscribe is refused, nothing more is made.
    const again = await (await browser.get('/dashboard/billing')).text();
    const newKey = /name="request_key" value="([^"]+)"/.exec(again)?.[1];
    expect(newKey).not.toBe(requestKey);
    await browser.post('/dashboard/billing/subscribe', {
      ...form,
      _token: tokenIn(again),
      request_key: newKey!,
    });
    expect(await subscriptions()).toHaveLength(1);
    expect(sandbox.store.subscriptions.size).toBe(1);
  });

  it('without the script, the chosen test card is the card: no "Enter a card."', async () => {
    const page = await (await browser.get('/dashboard/billing')).text();
    const res = await browser.post('/dashboard/billing/card', {
      _token: tokenIn(page),
      token: '',
      test_card: 'tok_mastercard',
    });
    expect(res.status).toBe(303);
    const after = await (await browser.get('/dashboard/billing')).text();
    expect(after).not.toContain('Enter a card.');
    expect(after).toContain('Your payment method is updated.');
  });
});
