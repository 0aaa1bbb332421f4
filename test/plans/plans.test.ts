import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SubscriptionRepository } from '../../src/billing/subscriptions/subscription-repository.js';
import { PlanResolver } from '../../src/plans/plan-resolver.js';
import { call, type PlansApp, startPlansApp, stopPlansApp, userWithCredentials } from './support.js';

const engine = process.env.TEST_DATABASE_URL ? 'postgres' : 'sqlite';
const DAY_MS = 86_400_000;

describe(`plans and their entitlements, through HTTP (${engine})`, () => {
  let t: PlansApp;
  beforeAll(async () => {
    t = await startPlansApp();
  });
  afterAll(() => stopPlansApp(t));

  it('an API key, a personal token and an OAuth token of one user share the free plan limit: then 429 with the headers', async () => {
    const { personal, apiKey, oauth } = await userWithCredentials(t);
    const first = await call(t, '/api/user', personal);
    expect(first.status).toBe(200);
    expect(first.headers.get('ratelimit-policy')).toBe('"plan.free";q=3;w=60');
    expect(first.headers.get('ratelimit')).toBe('"plan.free";r=2;t=60');
    expect((await call(t, '/api/user', apiKey)).status).toBe(200);
    expect((await call(t, '/api/user', oauth)).status).toBe(200);
    for (const credential of [personal, apiKey, oauth]) {
      const refused = await call(t, '/api/user', credential);
      expect(refused.status).toBe(429);
      expect(refused.headers.get('retry-after')).toBe('60');
      expect(refused.headers.get('ratelimit')).toBe('"plan.free";r=0;t=60');
      expect(refused.headers.get('ratelimit-policy')).toBe('"plan.free";q=3;w=60');
      expect(await refused.json()).toEqual({ message: 'Too Many Attempts.' });
    }
    // Another user has a counter of their own.
    const other = await userWithCredentials(t);
    expect((await call(t, '/api/user', other.apiKey)).status).toBe(200);
    // The window ends on the application clock.
    t.clock.advance(61_000);
    expect((await call(t, '/api/user', oauth)).status).toBe(200);
  });

  it('of parallel requests over the limit, exactly the limit are served', async () => {
    const { personal, apiKey } = await userWithCredentials(t);
    const statuses = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        call(t, '/api/user', i % 2 ? personal : apiKey).then((r) => r.status),
      ),
    );
    expect(statuses.filter((s) => s === 200)).toHaveLength(3);
    expect(statuses.filter((s) => s === 429)).toHaveLength(7);
  });

  it('upgrading lifts the limit and widens the scopes at once; downgrading narrows a live token at once', async () => {
    const { user, personal, oauth } = await userWithCredentials(t);
    // Free: the plan allows check-status only, so the token's place-orders does not count.
    const refused = await call(t, '/api/orders', personal, 'POST');
    expect(refused.status).toBe(403);
    expect(refused.headers.get('www-authenticate')).toContain('insufficient_scope');
    expect(await (await call(t, '/api/plan-probe/can', oauth)).json()).toEqual({
      placeOrders: false,
      scopes: ['check-status'],
    });
    expect((await call(t, '/api/user', personal)).status).toBe(200);
    expect((await call(t, '/api/user', personal)).status).toBe(429);

    await user.newSubscription('default', 'pro-monthly').create('tok_visa');
    const placed = await call(t, '/api/orders', personal, 'POST');
    expect(placed.status).toBe(201);
    expect(placed.headers.get('ratelimit-policy')).toBe('"plan.pro";q=1000;w=60');
    for (let i = 0; i < 5; i++) expect((await call(t, '/api/user', oauth)).status).toBe(200);
    expect(await (await call(t, '/api/plan-probe/can', oauth)).json()).toEqual({
      placeOrders: true,
      scopes: ['check-status', 'place-orders'],
    });

    await (await user.subscription('default'))!.swap('basic-monthly');
    expect((await call(t, '/api/orders', personal, 'POST')).status).toBe(403);
    const can = await call(t, '/api/plan-probe/can', oauth);
    expect(await can.json()).toEqual({ placeOrders: false, scopes: ['check-status'] });
    expect(can.headers.get('ratelimit-policy')).toBe('"plan.basic";q=5;w=60');
    expect((await call(t, '/api/orders', personal)).status).toBe(200);
  });

  it('plan:pro answers 403 with a clear body to other plans, 200 to pro, 402 past due beyond the grace', async () => {
    const { user, apiKey } = await userWithCredentials(t);
    const refused = await call(t, '/api/plan-probe/pro', apiKey);
    expect(refused.status).toBe(403);
    expect(await refused.json()).toEqual({
      message: 'This requires one of the plans: pro.',
      error: 'plan_required',
      plan: 'free',
      required: ['pro'],
    });
    await user.newSubscription('default', 'pro-monthly').create('tok_visa');
    expect((await call(t, '/api/plan-probe/pro', apiKey)).status).toBe(200);

    // The first failed renewal, as billing records it (the sandbox flow is tested with billing).
    const repository = t.app.container.make(SubscriptionRepository);
    const record = (await repository.findByName(Number(user.id), 'default'))!;
    await repository.update(record.id, { status: 'past_due' });
    expect((await call(t, '/api/plan-probe/pro', apiKey)).status).toBe(200);
    t.clock.advance(6 * DAY_MS);
    await repository.update(record.id, { status: 'past_due' }); // a retry fails: the date is kept
    expect((await call(t, '/api/plan-probe/pro', apiKey)).status).toBe(200);
    t.clock.advance(2 * DAY_MS);
    // The plan cache lasts `cacheMs` of real time; the test clock just jumped two days.
    t.app.container.make(PlanResolver).clear();
    const lapsed = await call(t, '/api/plan-probe/pro', apiKey);
    expect(lapsed.status).toBe(402);
    expect(await lapsed.json()).toMatchObject({ error: 'payment_required', required: ['pro'] });
    // Paid: active again, the plan is back at once.
    await repository.update(record.id, { status: 'active' });
    expect((await call(t, '/api/plan-probe/pro', apiKey)).status).toBe(200);
    expect((await repository.find(record.id))!.pastDueSince).toBeNull();
  });

  it('entitled:exports: 403 naming the feature without it, 200 with it', async () => {
    const { user, personal } = await userWithCredentials(t);
    const refused = await call(t, '/api/plan-probe/exports', personal);
    expect(refused.status).toBe(403);
    expect(await refused.json()).toEqual({
      message: 'Your plan (free) does not include "exports".',
      error: 'not_entitled',
      plan: 'free',
      feature: 'exports',
    });
    await user.newSubscription('default', 'pro-yearly').create('tok_visa');
    expect((await call(t, '/api/plan-probe/exports', personal)).status).toBe(200);
  });
});
