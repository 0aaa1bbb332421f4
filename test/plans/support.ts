import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createApp } from '../../app/bootstrap.js';
import type { AppUser } from '../../app/user.js';
import { Users } from '../../src/auth/users.js';
import { closeBilling } from '../../src/billing/service-provider.js';
import { TestClock } from '../../src/core/clock.js';
import type { DeepPartial, TollgateConfig } from '../../src/core/config.js';
import { createLogger } from '../../src/core/logger.js';
import type { Application } from '../../src/kernel/application.js';
import { listen, type RunningServer } from '../../src/kernel/server.js';
import { ApiKeys, Clients, installKeys } from '../../src/oauth/index.js';
import { meter } from '../../src/plans/index.js';
import { createTestDatabase, type TestDatabase } from '../support/database.js';
import type { Engine } from '../support/engines.js';

/** Free: one scope, 3 calls a minute, 6 a month. Basic: the same scope, 5 a minute. Pro: every scope, exports. */
export const PLANS: DeepPartial<TollgateConfig>['plans'] = {
  definitions: {
    free: { scopes: ['check-status'], rateLimit: { requests: 3, per: 'minute' }, monthlyQuota: 6 },
    basic: {
      billingPlans: ['basic-monthly'],
      scopes: ['check-status'],
      rateLimit: { requests: 5, per: 'minute' },
    },
    pro: {
      billingPlans: ['pro-monthly', 'pro-yearly'],
      scopes: ['*'],
      rateLimit: { requests: 1000, per: 'minute' },
      features: ['exports'],
    },
  },
  pastDueGraceDays: 7,
};

export interface PlansApp {
  app: Application;
  clock: TestClock;
  server: RunningServer;
  database: TestDatabase;
  storagePath: string;
}

/** The reference service (embedded Stripe sandbox) with plans declared, served on a socket. */
export async function startPlansApp(
  engine: Engine,
  config: DeepPartial<TollgateConfig> = {},
  /** A second instance: the first one's database and storage (keys, app key). */
  share?: PlansApp,
): Promise<PlansApp> {
  const db = share?.database ?? (await createTestDatabase(engine));
  const storagePath = share?.storagePath ?? mkdtempSync(join(tmpdir(), 'tollgate-plans-'));
  const clock = new TestClock(new Date('2026-01-15T12:00:00Z'));
  const app = await createApp(
    {
      app: { env: 'test', url: 'http://localhost' },
      database: { url: db.url },
      storagePath,
      routes: { cachePath: join(storagePath, 'routes.json') },
      redis: { url: '' },
      plans: PLANS,
      ...config,
    },
    { clock, logger: createLogger('silent') },
  );
  app.router.group({ prefix: '/api/plan-probe', middleware: ['api', 'auth:api'] }, (r) => {
    r.get('/pro', (c) => c.json({ ok: true })).middleware('plan:pro');
    r.get('/exports', (c) => c.json({ ok: true })).middleware('entitled:exports');
    r.post('/emails', (c) => c.json({ ok: true })).middleware('metered:emails,3');
    r.post('/report', async (c) => {
      await meter(c, 'emails', 2);
      return c.json({ ok: true });
    }).name('probe.report');
    r.get('/can', (c) => {
      const user = c.get('user') as unknown as AppUser;
      return c.json({ placeOrders: user.tokenCan('place-orders'), scopes: user.token()?.scopes });
    });
  });
  await app.migrate();
  installKeys(storagePath, app.config.oauth.signingAlgorithm);
  await app.boot();
  if (!share)
    await app.container
      .make(Clients)
      .create({ name: 'PAC', redirect: 'http://localhost', personalAccess: true });
  const server = await listen(app, '127.0.0.1', 0);
  return { app, clock, server, database: db, storagePath };
}

/** Stops the instances; the database and storage go with the first. */
export async function stopPlansApp(...instances: (PlansApp | undefined)[]): Promise<void> {
  for (const t of instances.toReversed()) {
    if (!t) continue;
    await t.server.close();
    await closeBilling(t.app);
    await t.app.close();
  }
  const first = instances[0];
  if (!first) return;
  await first.database.drop();
  rmSync(first.storagePath, { recursive: true, force: true });
}

let serial = 0;

/** A user with the three credential kinds, each asking for `scopes`. */
export async function userWithCredentials(t: PlansApp, scopes = ['check-status']) {
  const n = ++serial;
  const user = await t.app.container
    .make(Users)
    .create<AppUser>({ name: `User ${n}`, email: `user${n}-${Date.now()}@example.com`, password: PASSWORD });
  return { user, ...(await credentialsOf(t, user, scopes)) };
}

const PASSWORD = 'correct horse battery';

/** A personal token, an API key and an OAuth token (password grant) of `user`, asking for `scopes`. */
export async function credentialsOf(t: PlansApp, user: AppUser, scopes: string[]) {
  const personal = (await user.createToken('cli', scopes)).accessToken;
  const { plainKey } = await t.app.container
    .make(ApiKeys)
    .create(Number(user.id), { name: `key ${++serial}`, scopes });
  const grant = await passwordGrant(t, user, scopes);
  return { personal, apiKey: plainKey, oauth: grant.access_token };
}

/** The token endpoint's answer to a password grant for `user`. */
export async function passwordGrant(t: PlansApp, user: AppUser, scopes: string[]) {
  const { client, plainSecret } = await t.app.container.make(Clients).create({
    name: 'First party',
    redirect: 'http://localhost/cb',
    password: true,
  });
  const res = await fetch(`${t.server.url}/oauth/token`, {
    method: 'POST',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      authorization: `Basic ${Buffer.from(`${client.id}:${plainSecret}`).toString('base64')}`,
    },
    body: new URLSearchParams({
      grant_type: 'password',
      username: user.email,
      password: PASSWORD,
      scope: scopes.join(' '),
    }),
  });
  return (await res.json()) as { access_token: string; scope: string };
}

/** GET (or another method) with a bearer credential, as JSON. */
export function call(t: PlansApp, path: string, credential: string, method = 'GET'): Promise<Response> {
  return fetch(`${t.server.url}${path}`, {
    method,
    headers: {
      accept: 'application/json',
      authorization: `Bearer ${credential}`,
      'content-type': 'application/json',
    },
    body: method === 'GET' ? undefined : JSON.stringify({ item: 'tea', quantity: 1 }),
  });
}
