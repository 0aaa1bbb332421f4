import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SubscriptionRepository } from '../../src/billing/subscriptions/subscription-repository.js';
import { ApiKeys } from '../../src/oauth/index.js';
import { PlanResolver } from '../../src/plans/plan-resolver.js';
import { ENGINES } from '../support/engines.js';
import {
  call,
  credentialsOf,
  type PlansApp,
  passwordGrant,
  startPlansApp,
  stopPlansApp,
  userWithCredentials,
} from './support.js';

const DAY_MS = 86_400_000;

describe.each(ENGINES)('plans and their entitlements, through HTTP (%s)', (engine) => {
  let t: PlansApp;
  beforeAll(async () => {
    t = await startPlansApp(engine);
  });
  afterAll(() => stopPlansApp(t));

  it('an API key, a personal token and an OAuth token of one user share the free plan limit: then 429 with the headers', async () => {
    const { personal, apiKey, oauth } = await userWithCredentials(t);
    const first = await call(t, '/api/user', personal);
    expect(first.status).toBe(200);
    // January 2026: 31 days; the test clock stands at 2026-01-15T12:00Z, 16.5 days before February.
    expect(first.headers.get('ratelimit-policy')).toBe(
      '"plan.free";q=3;w=60, "plan.free.month";q=6;w=2678400',
    );
    expect(first.headers.get('ratelimit')).toBe('"plan.free";r=2;t=60, "plan.free.month";r=5;t=1425600');
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
    const { user, apiKey } = await userWithCredentials(t);
    for (let i = 0; i < 3; i++) expect((await call(t, '/api/user', apiKey)).status).toBe(200);
    expect((await call(t, '/api/user', apiKey)).status).toBe(429);

    await user.newSubscription('default', 'pro-monthly').create('tok_visa');
    const lifted = await call(t, '/api/user', apiKey);
    expect(lifted.status).toBe(200);
    expect(lifted.headers.get('ratelimit-policy')).toBe('"plan.pro";q=1000;w=60');
    const { personal, oauth } = await credentialsOf(t, user, ['check-status', 'place-orders']);
    expect((await call(t, '/api/orders', personal, 'POST')).status).toBe(201);
    expect(await (await call(t, '/api/plan-probe/can', oauth)).json()).toEqual({
      placeOrders: true,
      scopes: ['check-status', 'place-orders'],
    });

    // The same live tokens, not re-issued: the basic plan allows check-status only.
    await (await user.subscription('default'))!.swap('basic-monthly');
    const refused = await call(t, '/api/orders', personal, 'POST');
    expect(refused.status).toBe(403);
    expect(refused.headers.get('www-authenticate')).toContain('insufficient_scope');
    const can = await call(t, '/api/plan-probe/can', oauth);
    expect(await can.json()).toEqual({ placeOrders: false, scopes: ['check-status'] });
    expect(can.headers.get('ratelimit-policy')).toBe('"plan.basic";q=5;w=60');
    expect((await call(t, '/api/orders', personal)).status).toBe(200);

    // Upgraded again: the same tokens have place-orders back at once.
    await (await user.subscription('default'))!.swap('pro-yearly');
    expect((await call(t, '/api/orders', personal, 'POST')).status).toBe(201);
  });

  it('at issuance: the token endpoint drops scopes the plan does not allow; personal tokens and API keys refuse them (422)', async () => {
    const { user } = await userWithCredentials(t);
    const both = ['check-status', 'place-orders'];
    const grant = await passwordGrant(t, user, both);
    expect(grant.scope).toBe('check-status');
    expect(await (await call(t, '/api/plan-probe/can', grant.access_token)).json()).toMatchObject({
      scopes: ['check-status'],
    });
    const refusal = {
      status: 422,
      errors: { scopes: ['Your plan does not allow the scope "place-orders".'] },
    };
    await expect(user.createToken('cli', both)).rejects.toMatchObject(refusal);
    await expect(
      t.app.container.make(ApiKeys).create(Number(user.id), { name: 'k', scopes: both }),
    ).rejects.toMatchObject(refusal);
    await user.newSubscription('default', 'pro-monthly').create('tok_visa');
    expect((await passwordGrant(t, user, both)).scope).toBe('check-status place-orders');
    expect((await passwordGrant(t, user, ['*'])).scope).toBe('*');
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

  it('the monthly quota: counted per user and calendar month across credentials; 429 until the month ends; an upgrade lifts it', async () => {
    const { user, personal, apiKey } = await userWithCredentials(t);
    const statuses: number[] = [];
    for (let i = 0; i < 8; i++) {
      if (i % 3 === 0) t.clock.advance(61_000); // stay under the per-minute limit
      statuses.push((await call(t, '/api/user', i % 2 ? personal : apiKey)).status);
    }
    expect(statuses).toEqual([200, 200, 200, 200, 200, 200, 429, 429]);
    t.clock.advance(61_000);
    const spent = await call(t, '/api/user', personal);
    expect(spent.status).toBe(429);
    expect(await spent.json()).toEqual({ message: 'The monthly quota of your plan is used up.' });
    const untilFebruary = Math.ceil((Date.UTC(2026, 1, 1) - t.clock.now().getTime()) / 1000);
    expect(spent.headers.get('retry-after')).toBe(String(untilFebruary));
    expect(spent.headers.get('ratelimit')).toBe(
      `"plan.free";r=2;t=60, "plan.free.month";r=0;t=${untilFebruary}`,
    );

    // Another free user: a new month gives them a new quota.
    const other = await userWithCredentials(t);
    for (let i = 0; i < 6; i++) {
      if (i % 3 === 0) t.clock.advance(61_000);
      await call(t, '/api/user', other.apiKey);
    }
    t.clock.advance(61_000);
    expect((await call(t, '/api/user', other.apiKey)).status).toBe(429);

    await user.newSubscription('default', 'pro-monthly').create('tok_visa');
    expect((await call(t, '/api/user', personal)).status).toBe(200);

    t.clock.advance(Date.UTC(2026, 1, 1) - t.clock.now().getTime() + 1_000);
    expect((await call(t, '/api/user', other.apiKey)).status).toBe(200);
  });
});
