import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_CREDENTIALS } from '@tollgate/sandbox/braintree';
import braintree from 'braintree';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createApp } from '../../app/bootstrap.js';
import type { AppUser } from '../../app/user.js';
import { Users } from '../../src/auth/users.js';
import { closeBilling } from '../../src/billing/service-provider.js';
import { createLogger } from '../../src/core/logger.js';
import type { Application } from '../../src/kernel/application.js';
import { listen, type RunningServer } from '../../src/kernel/server.js';
import { createTestDatabase, type TestDatabase } from '../support/database.js';
import { ENGINES } from '../support/engines.js';
import { freePort } from '../support/free-port.js';

/**
 * The reference service with `billing.edition: 'braintree'` and no credentials, over a real socket:
 * the embedded sandbox signs with keys made for this process, so the webhook route refuses anything
 * signed with the sandbox's published default keys and accepts what the sandbox itself sends.
 */
describe.each(ENGINES)('the reference service on the embedded Braintree sandbox (%s)', (engine) => {
  let app: Application;
  let database: TestDatabase;
  let storagePath: string;
  let server: RunningServer;
  let base: string;
  let user: AppUser;

  const events = () =>
    app.db
      .selectFrom('billing_webhook_events')
      .select(['provider', 'type'])
      .where('provider', '=', 'braintree')
      // subscription_charged_successfully from the creation is recorded too (the state sync).
      .where('type', '=', 'subscription_canceled');
  const reload = async () => (await app.container.make(Users).find<AppUser>(user.id))!;

  beforeAll(async () => {
    database = await createTestDatabase(engine);
    storagePath = mkdtempSync(join(tmpdir(), 'tollgate-bt-embedded-'));
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    app = await createApp(
      {
        app: { env: 'test', url: base },
        database: { url: database.url },
        storagePath,
        routes: { cachePath: join(storagePath, 'routes.json') },
        billing: { edition: 'braintree', braintree: { merchantId: '', publicKey: '', privateKey: '' } },
      },
      { logger: createLogger('silent') },
    );
    await app.migrate();
    await app.boot();
    server = await listen(app, '127.0.0.1', port);
    user = await app.container.make(Users).create<AppUser>({
      name: 'Mallory Target',
      email: 'target@example.com',
      password: 'correct horse battery',
    });
    await user.newSubscription('main', 'basic-monthly').create('fake-valid-nonce');
  });

  afterAll(async () => {
    await server?.close();
    await closeBilling(app);
    await app.close();
    await database.drop();
    rmSync(storagePath, { recursive: true, force: true });
  });

  it('refuses (400) a subscription_canceled signed with the default keys; the subscription stays active', async () => {
    const subscription = (await (await reload()).subscription('main'))!;
    // What anyone can make: the official SDK's sample notification, signed with the published keys.
    const forger = new braintree.BraintreeGateway({
      environment: braintree.Environment.Sandbox,
      ...DEFAULT_CREDENTIALS,
    });
    const forged = await forger.webhookTesting.sampleNotification(
      'subscription_canceled',
      subscription.providerId,
    );
    const response = await fetch(`${base}/braintree/webhook`, {
      method: 'POST',
      body: new URLSearchParams({ bt_signature: forged.bt_signature, bt_payload: forged.bt_payload }),
    });
    expect(response.status).toBe(400);
    expect(await response.text()).not.toMatch(/\n\s+at /);
    const after = (await (await reload()).subscription('main'))!;
    expect(after.active()).toBe(true);
    expect(after.ended()).toBe(false);
    expect(await events().execute()).toEqual([]);
  });

  it("accepts the sandbox's own notification, signed with this process's keys", async () => {
    await (await (await reload()).subscription('main'))!.cancelNow();
    // Delivered after the call returned (realistic delivery), perhaps twice: recorded once.
    await vi.waitFor(async () => expect(await events().execute()).toHaveLength(1), { timeout: 10_000 });
    expect(await events().execute()).toEqual([{ provider: 'braintree', type: 'subscription_canceled' }]);
  });
});
