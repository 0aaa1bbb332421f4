import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'vitest';
import { createApp } from '../../app/bootstrap.js';
import { referenceConfig } from '../../app/config.js';
import type { PlanConfig } from '../../src/billing/config.js';
import { closeBilling } from '../../src/billing/index.js';
import type { TestClock } from '../../src/core/clock.js';
import type { DeepPartial, TollgateConfig } from '../../src/core/config.js';
import { createLogger } from '../../src/core/logger.js';
import type { Application } from '../../src/kernel/application.js';
import { listen, type RunningServer } from '../../src/kernel/server.js';
import { Browser, tokenIn } from '../auth/browser.js';
import type { TestApp } from '../support/app.js';
import { createTestDatabase, type TestDatabase } from '../support/database.js';
import type { Engine } from '../support/engines.js';
import type { EditionHarness, EditionSandbox } from './harness.js';

export interface ReferenceOverHttp {
  app: Application;
  server: RunningServer;
  sandbox: EditionSandbox;
  storagePath: string;
  /** Registers a new user through the pages and signs in: a cookie-keeping form browser. */
  signIn(prefix: string): Promise<{ browser: Browser; email: string }>;
  /** Posts a form of the billing page (its CSRF token and request key) to `path`. */
  billingForm(browser: Browser, path: string, fields: Record<string, string>): Promise<Response>;
  close(): Promise<void>;
}

/**
 * The reference service over real HTTP on an edition's sandbox that sends it signed webhooks, with
 * the reference catalog, on a fresh database and the given clock (shared with the sandbox).
 * Form posts carry the server's own `Origin`.
 */
export async function startReferenceOverHttp(
  harness: EditionHarness,
  options: { clock: TestClock; config?: DeepPartial<TollgateConfig>; engine?: Engine },
): Promise<ReferenceOverHttp> {
  const database: TestDatabase = await createTestDatabase(options.engine);
  const sandbox = await harness.startSandbox({
    clock: options.clock,
    plans: referenceConfig.billing!.plans as PlanConfig[],
    coupons: [],
    currency: 'usd',
  });
  const storagePath = mkdtempSync(join(tmpdir(), `tollgate-${harness.edition}-http-`));
  const app = await createApp(
    {
      app: { env: 'test', url: 'http://localhost' },
      database: { url: database.url },
      storagePath,
      routes: { cachePath: join(storagePath, 'routes.json') },
      ...options.config,
      billing: { currency: 'usd', ...sandbox.config },
    },
    { clock: options.clock, logger: createLogger('silent') },
  );
  await app.migrate();
  await app.boot();
  const server = await listen(app, '127.0.0.1', 0);
  sandbox.setWebhook(`${server.url}${harness.webhook.path}`);
  let n = 0;

  const transport = {
    request: (path: string, init: RequestInit = {}) => {
      const headers = new Headers(init.headers);
      if (headers.has('origin')) headers.set('origin', server.url);
      return fetch(new URL(path, server.url), { ...init, headers });
    },
  } as unknown as TestApp;

  return {
    app,
    server,
    sandbox,
    storagePath,
    async signIn(prefix) {
      const browser = new Browser(transport);
      const email = `${prefix}${++n}@example.com`;
      const fields = { name: 'Ada', email, password: 'correct horse battery' };
      await browser.submit('/register', { ...fields, password_confirmation: fields.password });
      expect((await browser.submit('/login', { email, password: fields.password })).status).toBe(302);
      return { browser, email };
    },
    async billingForm(browser, path, fields) {
      const page = await (await browser.get('/dashboard/billing')).text();
      const requestKey = /name="request_key" value="([^"]+)"/.exec(page)?.[1] ?? '';
      return browser.post(path, { _token: tokenIn(page), request_key: requestKey, ...fields });
    },
    async close() {
      await server.close();
      await closeBilling(app);
      await app.close();
      await sandbox.close();
      await database.drop();
      rmSync(storagePath, { recursive: true, force: true });
    },
  };
}
