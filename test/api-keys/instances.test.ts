import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { listen, type RunningServer } from '../../src/kernel/server.js';
import { ApiKeys } from '../../src/oauth/index.js';
import { type Instances, requireRedis, twoInstances } from '../protection/instances.js';
import { ENGINES } from '../support/engines.js';

const redisUrl = process.env.REDIS_URL;

/** Two instances on one database, each on its own socket: what one revokes, the other refuses. */
describe.each(ENGINES)('API key revocation across instances (%s)', (engine) => {
  let t: Instances | undefined;
  let servers: RunningServer[] = [];
  afterEach(async () => {
    for (const server of servers) await server.close();
    servers = [];
    await t?.close();
    t = undefined;
  });

  async function serve(instances: Instances) {
    t = instances;
    servers = [await listen(t.a, '127.0.0.1', 0), await listen(t.b, '127.0.0.1', 0)];
    const { plainKey, key } = await t.a.container.make(ApiKeys).create(t.ada.id, { name: 'shared' });
    const call = (server: RunningServer) =>
      fetch(`${server.url}/api/user`, {
        headers: { accept: 'application/json', 'x-api-key': plainKey },
      }).then((r) => r.status);
    return { key, callA: () => call(servers[0]!), callB: () => call(servers[1]!) };
  }

  /** Polls instance B until it refuses; returns how long that took (ms). */
  async function refusedWithin(callB: () => Promise<number>, limitMs: number): Promise<number> {
    const start = performance.now();
    for (;;) {
      const status = await callB();
      if (status === 401) return performance.now() - start;
      expect(status).toBe(200);
      if (performance.now() - start > limitMs)
        throw new Error(`instance B still accepts the key after ${limitMs} ms`);
      await new Promise((r) => setTimeout(r, 10));
    }
  }

  it.runIf(redisUrl)('a key revoked on A is refused by B within a second (Redis pub/sub)', async () => {
    await requireRedis(redisUrl!);
    const channel = `tollgate-test:${randomUUID()}`;
    const { key, callA, callB } = await serve(
      await twoInstances(
        engine,
        { redis: { url: redisUrl } },
        { a: { redisChannel: channel }, b: { redisChannel: channel } },
      ),
    );
    for (let i = 0; i < 3; i++) expect(await callB()).toBe(200);
    await t!.a.container.make(ApiKeys).revoke(key);
    expect(await callA()).toBe(401);
    expect(await refusedWithin(callB, 1000)).toBeLessThan(1000);
  });

  it('without Redis, B reads the row again after recheckAfterMs and refuses the key', async () => {
    const { key, callA, callB } = await serve(
      await twoInstances(engine, { redis: { url: '' } }, { b: { recheckAfterMs: 200 } }),
    );
    for (let i = 0; i < 3; i++) expect(await callB()).toBe(200);
    await t!.a.container.make(ApiKeys).revoke(key);
    expect(await callA()).toBe(401);
    expect(await refusedWithin(callB, 2000)).toBeLessThan(2000);
  });
});
