import { createHash, randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { listen, type RunningServer } from '../../src/kernel/server.js';
import { PUBLISH_TIMEOUT_MS } from '../../src/oauth/guard/revocation-broadcast.js';
import { Clients } from '../../src/oauth/index.js';
import type { ClientRecord } from '../../src/oauth/records.js';
import { OAuthStoreKey } from '../../src/oauth/stores/contracts.js';
import { type Instances, requireRedis, twoInstances } from '../protection/instances.js';
import { ADA } from '../protection/support.js';
import { tollgate } from '../support/cli.js';
import { ENGINES, type Engine } from '../support/engines.js';
import { type OwnRedis, startRedisServer } from '../support/redis-server.js';
import { Browser, basic, tokenRequest } from './http-client.js';

const redisUrl = process.env.REDIS_URL;
const KEPT = 'https://kept.example/callback';
const REMOVED = 'https://removed.example/callback';
/** Well within the 5 s for which an instance keeps a live client. */
const LIMIT_MS = 1_000;

/** A client_credentials request with HTTP Basic: the token endpoint's status. */
async function tokenStatus(server: { url: string }, id: string, secret: string): Promise<number> {
  const res = await tokenRequest(
    server,
    { grant_type: 'client_credentials' },
    { authorization: basic(id, secret) },
  );
  await res.body?.cancel();
  return res.status;
}

/** The authorization endpoint's status for a code request to `redirect` (PKCE S256). */
async function authorizeStatus(browser: Browser, clientId: string, redirect: string): Promise<number> {
  const challenge = createHash('sha256')
    .update('a verifier long enough for PKCE, 43 characters at least')
    .digest('base64url');
  const query = new URLSearchParams({
    client_id: clientId,
    redirect_uri: redirect,
    response_type: 'code',
    scope: 'check-status',
    state: 'xyz',
    code_challenge: challenge,
    code_challenge_method: 'S256',
  });
  const res = await browser.get(`/oauth/authorize?${query}`);
  await res.body?.cancel();
  return res.status;
}

/** Polls `status` until it gives `expected`; fails once `LIMIT_MS` have passed. */
async function becomes(status: () => Promise<number>, expected: number, what: string): Promise<void> {
  const start = performance.now();
  for (;;) {
    if ((await status()) === expected) return;
    if (performance.now() - start > LIMIT_MS) throw new Error(`instance B: ${what} after ${LIMIT_MS} ms`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** Two instances on one database and `redis`, B served on a port (for a browser's login). */
async function bothOn(
  engine: Engine,
  redis: string,
  channel = `tollgate-test:${randomUUID()}`,
): Promise<{ t: Instances; server: RunningServer }> {
  const t = await twoInstances(
    engine,
    { redis: { url: redis } },
    { a: { redisChannel: channel }, b: { redisChannel: channel } },
  );
  return { t, server: await listen(t.b, '127.0.0.1', 0) };
}

async function sharedClient(t: Instances): Promise<{ client: ClientRecord; secret: string }> {
  const { client, plainSecret } = await t.a.container
    .make(Clients)
    .create({ name: 'Shared', redirect: `${KEPT},${REMOVED}`, userId: t.ada.id });
  return { client, secret: plainSecret! };
}

// With REDIS_URL set (CI runs both ways): a client changed on one instance is read again by the others.
if (redisUrl) {
  describe.each(ENGINES)('a client changed on one instance, seen by another (%s, Redis)', (engine) => {
    let t: Instances | undefined;
    let server: RunningServer | undefined;
    afterEach(async () => {
      await server?.close();
      await t?.close();
      server = t = undefined;
    });

    const setup = async () => {
      await requireRedis(redisUrl);
      ({ t, server } = await bothOn(engine, redisUrl));
      return { t, b: server, ...(await sharedClient(t)) };
    };

    it('a secret rotated on A: B refuses the old secret and accepts the new one within a second', async () => {
      const { t, b, client, secret } = await setup();
      // Twice: the second authenticates from B's caches (the live client and the verified header).
      expect(await tokenStatus(b, client.id, secret)).toBe(200);
      expect(await tokenStatus(b, client.id, secret)).toBe(200);
      const rotated = await t.a.container.make(Clients).rotateSecret(client, 0);
      await becomes(() => tokenStatus(b, client.id, secret), 401, 'the old secret still works');
      expect(await tokenStatus(b, client.id, rotated!)).toBe(200);
    });

    it('redirect URIs updated on A: B refuses the removed one within a second', async () => {
      const { t, b, client } = await setup();
      const browser = new Browser(b.url);
      await browser.login(ADA);
      expect(await authorizeStatus(browser, client.id, REMOVED)).toBe(200);
      const updated: ClientRecord = await t.a.container
        .make(Clients)
        .update(client, { name: client.name, redirect: KEPT });
      expect(updated.redirect).toBe(KEPT);
      await becomes(
        () => authorizeStatus(browser, client.id, REMOVED),
        400,
        'the removed redirect URI still works',
      );
      expect(await authorizeStatus(browser, client.id, KEPT)).toBe(200);
    });
  });
}

describe.each(ENGINES)('a client changed while Redis was away (%s)', (engine) => {
  let redis: OwnRedis;
  let t: Instances | undefined;
  let server: RunningServer | undefined;
  beforeAll(async () => {
    redis = await startRedisServer();
  });
  afterEach(async () => {
    await server?.close();
    await t?.close();
    server = t = undefined;
  });
  afterAll(async () => {
    await redis?.stop();
  });

  it('B forgets the clients it keeps when its subscription comes back, since messages were lost meanwhile', async () => {
    ({ t, server } = await bothOn(engine, redis.url));
    const { client } = await sharedClient(t);
    const browser = new Browser(server.url);
    await browser.login(ADA);
    expect(await authorizeStatus(browser, client.id, REMOVED)).toBe(200);
    // A change no instance is told about, as one published while B's subscription was down.
    const store = t.a.container.make(OAuthStoreKey);
    await store.clients.update(
      client.id,
      { name: client.name, redirect: KEPT },
      t.a.clock.now().toISOString(),
    );
    expect(await authorizeStatus(browser, client.id, REMOVED)).toBe(200);

    const admin = new Redis(redis.url);
    try {
      await admin.call('CLIENT', 'KILL', 'TYPE', 'pubsub');
    } finally {
      admin.disconnect();
    }
    await becomes(
      () => authorizeStatus(browser, client.id, REMOVED),
      400,
      'the removed redirect URI still works',
    );
  });

  it('a secret rotated by `tollgate client:secret`, with an application of its own (as in the operator shell): B refuses the old secret within a second', async () => {
    ({ t, server } = await bothOn(engine, redis.url, 'tollgate:oauth:revocations'));
    const { client, secret } = await sharedClient(t);
    expect(await tokenStatus(server, client.id, secret)).toBe(200);
    expect(await tokenStatus(server, client.id, secret)).toBe(200);
    const rotated = await tollgate(['client:secret', client.id, '--json'], {
      DATABASE_URL: t.a.config.database.url,
      STORAGE_PATH: t.a.config.storagePath,
      REDIS_URL: redis.url,
      LOG_LEVEL: 'silent',
    });
    expect(rotated.code, rotated.stderr).toBe(0);
    const fresh = (JSON.parse(rotated.stdout) as { secret: string }).secret;
    const b = server;
    await becomes(() => tokenStatus(b, client.id, secret), 401, 'the old secret still works');
    expect(await tokenStatus(b, client.id, fresh)).toBe(200);
  });

  it('a Redis that hangs does not hold up a rotation or an update: they publish and go on', async () => {
    ({ t, server } = await bothOn(engine, redis.url));
    const { client } = await sharedClient(t);
    const clients = t.a.container.make(Clients);
    redis.pause();
    try {
      // A publish to it ends only after PUBLISH_TIMEOUT_MS.
      const started = performance.now();
      expect(await clients.rotateSecret(client, 0)).toBeDefined();
      await clients.update(client, { name: client.name, redirect: KEPT });
      expect(performance.now() - started).toBeLessThan(PUBLISH_TIMEOUT_MS);
    } finally {
      redis.resume();
    }
  });
});
