import { actingAs, stopActing } from 'tollgate/testing';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ENGINES } from '../support/engines.js';
import { type ProtectionApp, protectionApp } from './support.js';

/** `scopes:a,b` (all), `scope:a,b` (any), `*`, `tokenCan`, and `actingAs`, on the reference routes. */
describe.each(ENGINES)('scope middleware (%s)', (engine) => {
  let t: ProtectionApp;

  beforeAll(async () => {
    t = await protectionApp({ engine });
  });
  afterAll(async () => t.stop());
  afterEach(() => stopActing(t.app));

  const order = (token: string | undefined, item = 'Analytical engine') =>
    t.call('/api/orders', token, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ item, quantity: 2 }),
    });

  async function expectInsufficient(res: Response, scopes: string): Promise<void> {
    expect(res.status).toBe(403);
    const body = (await res.json()) as Record<string, unknown>;
    expect(body).toMatchObject({ error: 'insufficient_scope', scope: scopes });
    expect(res.headers.get('www-authenticate')).toMatch(
      new RegExp(`^Bearer error="insufficient_scope", .*scope="${scopes}", resource_metadata="[^"]+"$`),
    );
  }

  it('RFC 6750 §3.1: scopes:place-orders refuses a check-status token with 403 insufficient_scope', async () => {
    const { accessToken } = await t.ada.createToken('reader', ['check-status']);
    await expectInsufficient(await order(accessToken), 'place-orders');
    expect((await t.call('/api/orders', accessToken)).status).toBe(200);
  });

  it('a place-orders token places an order; check-status lists it; scope: lets either read its status', async () => {
    const writer = (await t.ada.createToken('writer', ['place-orders'])).accessToken;
    const reader = (await t.ada.createToken('reader', ['check-status'])).accessToken;
    const neither = (await t.ada.createToken('neither', [])).accessToken;

    const placed = await order(writer);
    expect(placed.status).toBe(201);
    const { data } = (await placed.json()) as { data: { id: number; status: string } };
    expect(data).toMatchObject({ item: 'Analytical engine', quantity: 2, status: 'placed' });

    await expectInsufficient(await t.call('/api/orders', writer), 'check-status');
    const list = await t.call('/api/orders', reader);
    expect(((await list.json()) as { data: { id: number }[] }).data.map((o) => o.id)).toContain(data.id);

    // any-of: either scope passes, none fails.
    for (const token of [writer, reader]) {
      const res = await t.call(`/api/orders/${data.id}/status`, token);
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ data: { id: data.id, status: 'placed' } });
    }
    await expectInsufficient(
      await t.call(`/api/orders/${data.id}/status`, neither),
      'check-status place-orders',
    );
  });

  it('scopes:a,b needs all of them', async () => {
    const both = (await t.ada.createToken('both', ['check-status', 'place-orders'])).accessToken;
    const one = (await t.ada.createToken('one', ['place-orders'])).accessToken;
    expect((await t.call('/probe/all', both)).status).toBe(200);
    await expectInsufficient(await t.call('/probe/all', one), 'check-status place-orders');
  });

  it('a token with * passes every check (password grant)', async () => {
    const all = await t.passwordToken('*');
    expect((await t.call('/probe/all', all)).status).toBe(200);
    expect((await t.call('/api/orders', all)).status).toBe(200);
    expect((await order(all)).status).toBe(201);
    const can = await t.call('/probe/can', all);
    expect(await can.json()).toEqual({ place: true, check: true });
  });

  it("another user's order is not found, whatever the scopes", async () => {
    const bobs = (await t.bob.createToken('bob', ['place-orders'])).accessToken;
    const placed = (await (await order(bobs, 'Difference engine')).json()) as { data: { id: number } };
    const ada = (await t.ada.createToken('ada', ['check-status'])).accessToken;
    expect((await t.call(`/api/orders/${placed.data.id}/status`, ada)).status).toBe(404);
  });

  it('POST /api/orders validates its body (422)', async () => {
    const { accessToken } = await t.ada.createToken('writer', ['place-orders']);
    const res = await order(accessToken, '');
    expect(res.status).toBe(422);
    expect(await res.json()).toMatchObject({ errors: { item: expect.any(Array) } });
  });

  it('user.tokenCan(scope) reflects the token of the request', async () => {
    const { accessToken } = await t.ada.createToken('reader', ['check-status']);
    const res = await t.call('/probe/can', accessToken);
    expect(await res.json()).toEqual({ place: false, check: true });
  });

  it('actingAs(user, scopes) authenticates requests without a token', async () => {
    actingAs(t.app, t.ada, ['check-status']);
    const me = await t.call('/api/user');
    expect(me.status).toBe(200);
    expect(await me.json()).toMatchObject({ email: 'ada@example.com' });
    expect((await t.call('/api/orders')).status).toBe(200);
    await expectInsufficient(await order(undefined), 'place-orders');
    expect(await (await t.call('/probe/can')).json()).toEqual({ place: false, check: true });

    stopActing(t.app);
    expect((await t.call('/api/user')).status).toBe(401);
  });

  it('scopes: without auth:api before it answers 401, not a crash', async () => {
    const { accessToken } = await t.ada.createToken('reader', ['check-status']);
    const res = await t.call('/probe/scopes-only', accessToken);
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ message: 'Unauthenticated.' });
  });

  it('unknown scopes in a route are a boot error, not a request-time surprise', async () => {
    const { MiddlewareRegistry } = await import('../../src/http/middleware-registry.js');
    const { checkScopes } = await import('../../src/oauth/index.js');
    const registry = new MiddlewareRegistry().alias('scopes', (...s) =>
      checkScopes(s, { has: (name) => name === 'check-status' }),
    );
    expect(() => registry.resolve(['scopes:check-status'])).not.toThrow();
    expect(() => registry.resolve(['scopes:chek-status'])).toThrow(/chek-status/);
    expect(() => registry.resolve(['scopes'])).toThrow(/needs scopes/);
  });
});
