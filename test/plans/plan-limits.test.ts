import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { requireRedis } from '../protection/instances.js';
import { ENGINES } from '../support/engines.js';
import { call, PLANS, type PlansApp, startPlansApp, stopPlansApp, userWithCredentials } from './support.js';

const redisUrl = process.env.REDIS_URL;
const stores = [{ name: 'database', redis: '' }, ...(redisUrl ? [{ name: 'Redis', redis: redisUrl }] : [])];

const withFree = (free: object) => ({ ...PLANS, definitions: { ...PLANS!.definitions, free } });

describe.each(ENGINES)('per-credential and per-client plan limits (%s)', (engine) => {
  let t: PlansApp | undefined;
  afterEach(async () => {
    await stopPlansApp(t);
    t = undefined;
  });

  it('a token is refused past its own limit, a second token of the same client past the client’s; an API key goes on', async () => {
    const rateLimit = {
      requests: 100,
      per: 'minute',
      perClient: { requests: 3, per: 'minute' },
      perCredential: { requests: 2, per: 'minute' },
    };
    t = await startPlansApp(engine, { plans: withFree({ scopes: ['check-status'], rateLimit }) });
    const { user, personal, apiKey } = await userWithCredentials(t);
    const second = (await user.createToken('second', ['check-status'])).accessToken;
    const statuses = [];
    for (const token of [personal, personal, personal])
      statuses.push((await call(t, '/api/user', token)).status);
    expect(statuses).toEqual([200, 200, 429]);
    const byCredential = await call(t, '/api/user', personal);
    expect(byCredential.headers.get('ratelimit-policy')).toBe('"plan.free.credential";q=2;w=60');
    expect(Number(byCredential.headers.get('retry-after'))).toBeGreaterThan(0);
    // Personal tokens share the personal access client: 2 calls + 1 make the client's 3.
    expect((await call(t, '/api/user', second)).status).toBe(200);
    const byClient = await call(t, '/api/user', second);
    expect(byClient.status).toBe(429);
    expect(byClient.headers.get('ratelimit-policy')).toBe(
      '"plan.free.credential";q=2;w=60, "plan.free.client";q=3;w=60',
    );
    const key = await call(t, '/api/user', apiKey);
    expect(key.status).toBe(200);
    expect(key.headers.get('ratelimit-policy')).toBe(
      '"plan.free.credential";q=2;w=60, "plan.free";q=100;w=60',
    );
  });
});

for (const store of stores) {
  describe.each(ENGINES)(
    `a plan limit counted in leases across two instances, in the ${store.name} (%s)`,
    (engine) => {
      let a: PlansApp | undefined;
      let b: PlansApp | undefined;
      afterEach(async () => {
        await stopPlansApp(a, b);
        a = b = undefined;
      });

      it('of 150 parallel calls against 100 a minute, never more than 100 pass, at most 2 × (lease − 1) fewer', async () => {
        if (store.redis) await requireRedis(store.redis);
        const redis = { url: store.redis, keyPrefix: `test-${randomUUID()}:` };
        const plans = withFree({ scopes: ['check-status'], rateLimit: { requests: 100, per: 'minute' } });
        a = await startPlansApp(engine, { redis, plans });
        b = await startPlansApp(engine, { redis, plans }, a);
        const { apiKey, personal } = await userWithCredentials(a);
        const responses = await Promise.all(
          Array.from({ length: 150 }, (_, i) =>
            call(i % 2 ? b! : a!, '/api/user', i % 3 ? apiKey : personal),
          ),
        );
        const statuses = responses.map((r) => r.status);
        const served = statuses.filter((s) => s === 200).length;
        // A lease is 100 / 20 = 5 calls; one instance may hold up to 4 the other cannot use.
        expect(served).toBeLessThanOrEqual(100);
        expect(served).toBeGreaterThanOrEqual(100 - 2 * 4);
        expect(served + statuses.filter((s) => s === 429).length).toBe(150);
        const refused = responses.find((r) => r.status === 429)!;
        expect(refused.headers.get('ratelimit')).toMatch(/^"plan\.free";r=0;t=\d+$/);
      });
    },
  );
}
