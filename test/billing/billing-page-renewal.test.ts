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
import { ANY_ENGINE } from '../support/engines.js';

// The reference app's billing page on a Stripe sandbox: the date the plan renews, ends or leaves its trial.
describe('the billing page: renewal date of the plan', () => {
  let app: Application;
  let database: TestDatabase;
  let storagePath: string;
  let server: { url: string; close(): Promise<void> } | undefined;
  let seq = 0;
  const clock = new TestClock(new Date('2026-01-15T12:00:00Z'));

  beforeAll(async () => {
    database = await createTestDatabase(ANY_ENGINE);
    const plans = referenceConfig.billing!.plans as PlanConfig[];
    server = await createStripeSandbox({ clock, plans: sandboxPlans(plans, 'usd') }).listen(0, '127.0.0.1');
    storagePath = mkdtempSync(join(tmpdir(), 'tollgate-renewal-'));
    app = await createApp(
      {
        app: { env: 'test', url: 'http://localhost' },
        database: { url: database.url },
        storagePath,
        routes: { cachePath: join(storagePath, 'routes.json') },
        billing: {
          edition: 'stripe',
          currency: 'usd',
          stripe: {
            key: 'pk_test_x',
            secret: 'sk_test_renewal',
            webhookSecret: 'whsec_x',
            apiBase: server.url,
          },
        },
      },
      { clock, logger: createLogger('silent') },
    );
    await app.migrate();
    await app.boot();
  }, 60_000);

  afterAll(async () => {
    await app?.close();
    await server?.close();
    await database?.drop();
    rmSync(storagePath, { recursive: true, force: true });
  });

  /** A new user, registered and signed in through the forms. */
  async function signedIn(): Promise<Browser> {
    const transport = {
      request: (path: string, init?: RequestInit) =>
        app.fetch(new Request(new URL(path, 'http://localhost'), init)),
    };
    const browser = new Browser(transport as unknown as TestApp);
    const email = `renewal${++seq}@example.com`;
    const password = 'correct horse battery';
    await browser.submit('/register', { name: 'Ada', email, password, password_confirmation: password });
    expect((await browser.submit('/login', { email, password })).status).toBe(302);
    return browser;
  }

  async function post(browser: Browser, action: string, fields: Record<string, string> = {}) {
    const page = await (await browser.get('/dashboard/billing')).text();
    const requestKey = /name="request_key" value="([^"]+)"/.exec(page)?.[1] ?? '';
    const res = await browser.post(`/dashboard/billing/${action}`, {
      _token: tokenIn(page),
      request_key: requestKey,
      ...fields,
    });
    expect(res.status).toBe(303);
  }

  const renewal = async (browser: Browser) => {
    const res = await browser.get('/dashboard/billing');
    expect(res.status).toBe(200);
    const html = await res.text();
    return /<p[^>]*data-renewal[^>]*><strong>([^<]*)<\/strong>/.exec(html)?.[1] ?? null;
  };

  it('an active monthly plan renews at the end of its period; cancelled, it ends then', async () => {
    const browser = await signedIn();
    expect(await renewal(browser)).toBeNull();
    await post(browser, 'subscribe', { plan: 'basic-monthly', token: 'tok_visa' });
    expect(await renewal(browser)).toBe('Renews on 15 February 2026');
    await post(browser, 'cancel');
    expect(await renewal(browser)).toBe('Ends on 15 February 2026');
    await post(browser, 'resume');
    expect(await renewal(browser)).toBe('Renews on 15 February 2026');
  });

  it('a yearly plan renews a year on; a plan with a trial shows the trial end', async () => {
    const yearly = await signedIn();
    await post(yearly, 'subscribe', { plan: 'pro-yearly', token: 'tok_visa' });
    expect(await renewal(yearly)).toBe('Renews on 15 January 2027');
    const trial = await signedIn();
    await post(trial, 'subscribe', { plan: 'pro-monthly', token: 'tok_visa' });
    expect(await renewal(trial)).toBe('Trial ends on 29 January 2026');
  });

  it('the provider out of reach: the page still renders, without a renewal date, and says why', async () => {
    const browser = await signedIn();
    await post(browser, 'subscribe', { plan: 'basic-monthly', token: 'tok_visa' });
    await server!.close();
    server = undefined;
    const html = await (await browser.get('/dashboard/billing')).text();
    expect(html).toContain('The payment provider could not be reached');
    expect(html).not.toContain('Renews on');
    expect(html).toContain('data-state="active"');
  });
});
