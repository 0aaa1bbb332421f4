import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_RECHECK_MS } from '../../src/oauth/guard/index.js';
import { Clients, PersonalAccessTokens } from '../../src/oauth/index.js';
import { ENGINES } from '../support/engines.js';
import { type Instances, requireRedis, twoInstances } from './instances.js';
import { protectionApp } from './support.js';

const redisUrl = process.env.REDIS_URL;

/** Polls until the request is refused; returns how long it took (ms). */
async function refusedWithin(t: Instances, path: string, token: string, limitMs: number): Promise<number> {
  const start = performance.now();
  for (;;) {
    const res = await t.call(t.b, path, token);
    if (res.status === 401) return performance.now() - start;
    expect(res.status).toBe(200);
    if (performance.now() - start > limitMs)
      throw new Error(`instance B still accepts the token after ${limitMs} ms`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

// With REDIS_URL set (CI runs both ways): instances tell each other over pub/sub.
if (redisUrl) {
  describe.each(ENGINES)('revocation across instances (%s, Redis)', (engine) => {
    let t: Instances | undefined;
    afterEach(async () => {
      await t?.close();
      t = undefined;
    });

    const setup = async () => {
      await requireRedis(redisUrl);
      const channel = `tollgate-test:${randomUUID()}`;
      return twoInstances(
        engine,
        { redis: { url: redisUrl } },
        { a: { redisChannel: channel }, b: { redisChannel: channel } },
      );
    };

    it('a token revoked on instance A is refused by instance B within a second (Redis pub/sub)', async () => {
      t = await setup();
      const { accessToken, token } = await t.ada.createToken('shared', ['check-status']);
      expect((await t.call(t.b, '/api/orders', accessToken)).status).toBe(200);
      expect((await t.call(t.b, '/api/orders', accessToken)).status).toBe(200);
      await t.a.container.make(PersonalAccessTokens).revoke(token.id);
      expect((await t.call(t.a, '/api/orders', accessToken)).status).toBe(401);
      expect(await refusedWithin(t, '/api/orders', accessToken, 1000)).toBeLessThan(1000);
    });

    it('a client revoked on instance A: its tokens are refused by instance B within a second', async () => {
      t = await setup();
      const { accessToken } = await t.ada.createToken('shared', []);
      expect((await t.call(t.b, '/api/user', accessToken)).status).toBe(200);
      const clients = t.a.container.make(Clients);
      await clients.delete((await clients.personalAccessClient())!);
      expect(await refusedWithin(t, '/api/user', accessToken, 1000)).toBeLessThan(1000);
    });
  });
}

describe.each(ENGINES)('revocation across instances without Redis (%s)', (engine) => {
  let t: Instances | undefined;
  afterEach(async () => {
    await t?.close();
    t = undefined;
  });

  it('by default, instance B refuses a token revoked on A within DEFAULT_RECHECK_MS', async () => {
    t = await twoInstances(engine, { redis: { url: '' } });
    const { accessToken, token } = await t.ada.createToken('shared', ['check-status']);
    for (let i = 0; i < 3; i++) expect((await t.call(t.b, '/api/orders', accessToken)).status).toBe(200);
    const revokedAt = performance.now();
    await t.a.container.make(PersonalAccessTokens).revoke(token.id);
    expect((await t.call(t.a, '/api/orders', accessToken)).status).toBe(401);
    const waited = await refusedWithin(t, '/api/orders', accessToken, DEFAULT_RECHECK_MS + 1_000);
    expect(performance.now() - revokedAt).toBeLessThan(DEFAULT_RECHECK_MS + 1_000);
    expect(waited).toBeGreaterThan(0);
  });

  it('recheckAfterMs sets the bound: 0 reads the row on every request', async () => {
    t = await twoInstances(engine, { redis: { url: '' } }, { b: { recheckAfterMs: 0 } });
    const { accessToken, token } = await t.ada.createToken('shared', []);
    expect((await t.call(t.b, '/api/user', accessToken)).status).toBe(200);
    await t.a.container.make(PersonalAccessTokens).revoke(token.id);
    expect((await t.call(t.b, '/api/user', accessToken)).status).toBe(401);
  });
});

describe.each(ENGINES)('a Redis that is down (%s)', (engine) => {
  it('does not stop the instance: it boots, serves, and refuses what it revoked itself', async () => {
    const t = await protectionApp({ engine, config: { redis: { url: 'redis://127.0.0.1:1' } } });
    try {
      const { accessToken, token } = await t.ada.createToken('local', []);
      expect((await t.call('/api/user', accessToken)).status).toBe(200);
      await t.app.container.make(PersonalAccessTokens).revoke(token.id);
      expect((await t.call('/api/user', accessToken)).status).toBe(401);
    } finally {
      const closing = performance.now();
      await t.stop();
      expect(performance.now() - closing).toBeLessThan(3_000);
    }
  });
});
