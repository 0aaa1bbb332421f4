import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { closeBilling } from '../../src/billing/service-provider.js';
import { ApiKeys } from '../../src/oauth/index.js';
import { BillableOrganization, Organizations } from '../../src/organizations/index.js';
import { RateLimits } from '../../src/rate-limits/rate-limits.js';
import { requireRedis } from '../protection/instances.js';
import { ENGINES } from '../support/engines.js';
import { call, PLANS, type PlansApp, startPlansApp, stopPlansApp, userWithCredentials } from './support.js';

const redisUrl = process.env.REDIS_URL;
const stores = [{ name: 'database', redis: '' }, ...(redisUrl ? [{ name: 'Redis', redis: redisUrl }] : [])];

/** Two instances behind one load balancer: a user's plan limit holds across them. */
for (const store of stores) {
  describe.each(ENGINES)(
    `the plan rate limit across two instances, counted in the ${store.name} (%s)`,
    (engine) => {
      let a: PlansApp | undefined;
      let b: PlansApp | undefined;
      afterEach(async () => {
        await stopPlansApp(a, b);
        a = b = undefined;
      });

      it('three calls a minute in all, whichever instance serves them', async () => {
        if (store.redis) await requireRedis(store.redis);
        const redis = { url: store.redis, keyPrefix: `test-${randomUUID()}:` };
        a = await startPlansApp(engine, { redis });
        b = await startPlansApp(engine, { redis }, a);
        const { apiKey, personal } = await userWithCredentials(a);
        const statuses: number[] = [];
        for (let i = 0; i < 6; i++) {
          const res = await call(i % 2 ? b : a, '/api/user', i % 3 ? apiKey : personal);
          statuses.push(res.status);
        }
        expect(statuses).toEqual([200, 200, 200, 429, 429, 429]);
        expect(a.app.container.make(RateLimits).store).toBe(store.redis ? 'redis' : 'database');
        const rows = await a.app.db.selectFrom('rate_limits').select('key').execute();
        // The per-minute counter and the month's, for the one user.
        expect(rows.filter((r) => r.key.startsWith('plan.'))).toHaveLength(store.redis ? 0 : 2);
      });
    },
  );
}

/** A change made on one instance (an upgrade, a webhook) reaches the other's cached plan. */
describe.each(ENGINES)('a plan change across two instances (%s)', (engine) => {
  let a: PlansApp | undefined;
  let b: PlansApp | undefined;
  afterEach(async () => {
    await stopPlansApp(a, b);
    a = b = undefined;
  });

  const policyAt = async (t: PlansApp, key: string) =>
    (await call(t, '/api/user', key)).headers.get('ratelimit-policy')?.split(';')[0];

  it.runIf(redisUrl)('with Redis: B forgets the plan of a user as soon as A upgrades them', async () => {
    await requireRedis(redisUrl!);
    const redis = { url: redisUrl!, keyPrefix: `test-${randomUUID()}:` };
    a = await startPlansApp(engine, { redis });
    b = await startPlansApp(engine, { redis }, a);
    const { user, apiKey } = await userWithCredentials(a);
    expect(await policyAt(b, apiKey)).toBe('"plan.free"');
    await user.newSubscription('default', 'pro-monthly').create('tok_visa');
    const start = performance.now();
    while ((await policyAt(b, apiKey)) !== '"plan.pro"') {
      expect(performance.now() - start).toBeLessThan(1_000);
      await new Promise((r) => setTimeout(r, 10));
    }
  });

  it.runIf(redisUrl)("with Redis: B forgets an organization's plan as soon as A subscribes it", async () => {
    await requireRedis(redisUrl!);
    const redis = { url: redisUrl!, keyPrefix: `test-${randomUUID()}:` };
    a = await startPlansApp(engine, { redis });
    b = await startPlansApp(engine, { redis }, a);
    const { user } = await userWithCredentials(a);
    const { id } = await a.app.container.make(Organizations).create(Number(user.id), 'Acme');
    const { plainKey } = await a.app.container
      .make(ApiKeys)
      .create(Number(user.id), { name: 'deploy', scopes: ['check-status'], organizationId: id });
    expect(await policyAt(b, plainKey)).toBe('"plan.free"');
    await a.app.db
      .updateTable('organizations')
      .set({ billing_email: 'billing@example.com' })
      .where('id', '=', id)
      .execute();
    const row = await a.app.db
      .selectFrom('organizations')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    await new BillableOrganization(a.app.container, row)
      .newSubscription('default', 'pro-monthly')
      .create('tok_visa');
    const start = performance.now();
    while ((await policyAt(b, plainKey)) !== '"plan.pro"') {
      expect(performance.now() - start).toBeLessThan(1_000);
      await new Promise((r) => setTimeout(r, 10));
    }
  });

  it('without Redis: B follows within plans.cacheMs', async () => {
    const config = { redis: { url: '' }, plans: { ...PLANS, cacheMs: 300 } };
    a = await startPlansApp(engine, config);
    b = await startPlansApp(engine, config, a);
    const { user, apiKey } = await userWithCredentials(a);
    expect(await policyAt(b, apiKey)).toBe('"plan.free"');
    await user.newSubscription('default', 'pro-monthly').create('tok_visa');
    expect(await policyAt(a, apiKey)).toBe('"plan.pro"');
    await new Promise((r) => setTimeout(r, 350));
    expect(await policyAt(b, apiKey)).toBe('"plan.pro"');
  });
});

/** A deploy restarts instances while their leases of a user's quota are half used. */
describe.each(ENGINES)('a restarted instance (%s)', (engine) => {
  let b: PlansApp | undefined;
  afterEach(async () => {
    await stopPlansApp(b);
    b = undefined;
  });

  const monthLeft = (res: Response) =>
    Number(/"plan\.free\.month";r=(\d+)/.exec(res.headers.get('ratelimit') ?? '')?.[1]);

  it('hands back the quota its leases did not use: the month counts only the calls served', async () => {
    // 1,000 calls a month: each instance claims them 50 at a time.
    const plans = {
      ...PLANS,
      definitions: { ...PLANS!.definitions, free: { scopes: ['check-status'], monthlyQuota: 1_000 } },
    };
    const a = await startPlansApp(engine, { plans });
    const { apiKey } = await userWithCredentials(a);
    expect((await call(a, '/api/user', apiKey)).status).toBe(200);
    expect((await call(a, '/api/user', apiKey)).status).toBe(200);
    await a.server.close();
    await closeBilling(a.app);
    await a.app.close();
    b = await startPlansApp(engine, { plans }, a);
    const res = await call(b, '/api/user', apiKey);
    expect(res.status).toBe(200);
    // Served 3 in all; without the hand-back the month would read 1,000 − 50 − 1 = 949.
    expect(monthLeft(res)).toBe(997);
  });
});
