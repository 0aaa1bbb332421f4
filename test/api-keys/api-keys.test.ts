import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { referenceConfig } from '../../app/config.js';
import { ApiKeys } from '../../src/oauth/api-keys/api-keys.js';
import { ApiKeyStoreKey } from '../../src/oauth/api-keys/records.js';
import { ApiKeyRevoked } from '../../src/oauth/events.js';
import { LastUsed } from '../../src/oauth/guard/last-used.js';
import { OAuthStoreKey } from '../../src/oauth/stores/contracts.js';
import { BOB, Browser, type ProtectionApp, protectionApp } from '../protection/support.js';
import { ENGINES } from '../support/engines.js';
import { holdUntilBoth } from '../support/hold-until-both.js';

interface Created {
  key: string;
  api_key: { id: string; name: string; hint: string; scopes: string[]; expires_at: string | null };
}
interface Listed {
  id: string;
  name: string;
  prefix: string;
  last_four: string;
  hint: string;
  last_used_at: string | null;
}

/** API keys over HTTP: the JSON API creates and revokes them, `auth:api` accepts them beside tokens. */
describe.each(ENGINES)('API keys (%s)', (engine) => {
  let t: ProtectionApp;
  let ada: Browser;
  let csrf: string;

  beforeAll(async () => {
    // The JSON API's own per-user limit (60 a minute) is not what these tests are about.
    const throttle = { api: { user: { points: 1000, durationSeconds: 60 } } };
    t = await protectionApp({ engine, config: { oauth: { ...referenceConfig.oauth, throttle } } });
    ada = new Browser(t.url);
    await ada.login({ email: 'ada@example.com', password: 'correct horse battery' });
    csrf = await ada.page();
  });
  afterAll(async () => t.stop());

  const json = (browser: Browser, method: string, path: string, token: string, body?: unknown) =>
    browser.api(
      path,
      {
        'x-csrf-token': token,
        origin: t.url,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      { method, body: body === undefined ? undefined : JSON.stringify(body) },
    );
  const create = async (body: Record<string, unknown>): Promise<Created> => {
    const res = await json(ada, 'POST', '/api-keys', csrf, body);
    expect(res.status, await res.clone().text()).toBe(201);
    expect(res.headers.get('cache-control')).toBe('no-store');
    return (await res.json()) as Created;
  };
  const list = async (): Promise<Listed[]> =>
    (await (await json(ada, 'GET', '/api-keys', csrf)).json()) as Listed[];
  const withHeader = (key: string, path = '/api/user') =>
    fetch(`${t.url}${path}`, { headers: { accept: 'application/json', 'x-api-key': key } });

  it('POST shows the key once (tg_test_ in a test app); GET lists only its prefix and last four', async () => {
    const { key, api_key } = await create({ name: 'CI deploy', scopes: ['check-status'] });
    expect(key).toMatch(/^tg_test_[0-9A-Za-z]{36}$/);
    expect(api_key).toMatchObject({ name: 'CI deploy', scopes: ['check-status'], expires_at: null });
    const listed = (await list()).find((k) => k.id === api_key.id)!;
    expect(listed).toMatchObject({
      prefix: 'tg_test_',
      last_four: key.slice(-4),
      hint: `tg_test_…${key.slice(-4)}`,
    });
    expect(JSON.stringify(await list())).not.toContain(key);
    // Only the SHA-256 is stored.
    const store = t.app.container.make(ApiKeyStoreKey);
    expect(await store.findByHash(key)).toBeUndefined();
  });

  it('auth:api accepts a key as Bearer and in X-API-Key; scopes: and scope: apply; tokenCan sees them', async () => {
    const { key } = await create({ name: 'status only', scopes: ['check-status'] });
    const bearer = await t.call('/api/user', key);
    expect(bearer.status).toBe(200);
    expect(await bearer.json()).toMatchObject({ id: t.ada.id, email: 'ada@example.com' });
    expect((await withHeader(key)).status).toBe(200);
    expect((await t.call('/api/orders', key)).status).toBe(200);
    const refused = await t.call('/api/orders', key, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ item: 'x' }),
    });
    expect(refused.status).toBe(403);
    expect(refused.headers.get('www-authenticate')).toMatch(/insufficient_scope/);
    expect((await withHeader(key, '/probe/all')).status).toBe(403);
    expect(await (await t.call('/probe/can', key)).json()).toEqual({ place: false, check: true });
  });

  it('a malformed key (bad checksum, wrong environment) is refused with 401 before any lookup', async () => {
    const store = t.app.container.make(ApiKeyStoreKey);
    const lookups = vi.spyOn(store, 'findByHash');
    const { key } = await create({ name: 'to mangle' });
    const i = 20;
    const mangled = key.slice(0, i) + (key[i] === 'a' ? 'b' : 'a') + key.slice(i + 1);
    for (const bad of [mangled, key.replace('tg_test_', 'tg_live_'), 'tg_test_short']) {
      const res = await t.call('/api/user', bad);
      expect(res.status).toBe(401);
      expect(await res.json()).toEqual({ message: 'Unauthenticated.' });
      expect(res.headers.get('www-authenticate')).toMatch(/^Bearer error="invalid_token"/);
      expect((await withHeader(bad)).status).toBe(401);
    }
    expect(lookups).not.toHaveBeenCalled();
    lookups.mockRestore();
  });

  it('DELETE revokes: the key is refused at once (also while cached), then gone from the list; 404 for Bob', async () => {
    const { key, api_key } = await create({ name: 'to revoke' });
    expect((await t.call('/api/user', key)).status).toBe(200);
    const bob = new Browser(t.url);
    await bob.login(BOB);
    const bobCsrf = await bob.page();
    expect((await json(bob, 'DELETE', `/api-keys/${api_key.id}`, bobCsrf)).status).toBe(404);
    expect((await t.call('/api/user', key)).status).toBe(200);
    expect((await json(ada, 'DELETE', `/api-keys/${api_key.id}`, csrf)).status).toBe(204);
    const res = await t.call('/api/user', key);
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toMatch(/invalid_token/);
    expect((await withHeader(key)).status).toBe(401);
    expect((await list()).map((k) => k.id)).not.toContain(api_key.id);
    expect((await json(ada, 'DELETE', `/api-keys/${api_key.id}`, csrf)).status).toBe(404);
    expect((await json(ada, 'DELETE', '/api-keys/not-an-id', csrf)).status).toBe(404);
  });

  it('needs a session and the CSRF token; validates the body with 422 and field messages', async () => {
    expect((await fetch(`${t.url}/api-keys`, { headers: { accept: 'application/json' } })).status).toBe(401);
    expect((await json(ada, 'POST', '/api-keys', '', { name: 'x' })).status).toBe(419);
    for (const [body, field] of [
      [{}, 'name'],
      [{ name: 'x', scopes: ['*'] }, 'scopes'],
      [{ name: 'x', scopes: ['launch-missiles'] }, 'scopes'],
      [{ name: 'x', expires_in_days: 0 }, 'expires_in_days'],
      [{ name: 'x', expires_in_days: 'soon' }, 'expires_in_days'],
      [{ name: 'x', rate_limit_per_minute: -1 }, 'rate_limit_per_minute'],
    ] as const) {
      const res = await json(ada, 'POST', '/api-keys', csrf, body);
      expect(res.status).toBe(422);
      expect(((await res.json()) as { errors: Record<string, string[]> }).errors[field]).toBeDefined();
    } // Laravel's wording, the attribute named without underscores.
    for (const [body, message, field] of [
      [{}, 'The name field is required.', 'name'],
      [
        { name: 'x', expires_in_days: 'soon' },
        'The expires in days field must be a number.',
        'expires_in_days',
      ],
      [
        { name: 'x', expires_in_days: 1.5 },
        'The expires in days field must be an integer.',
        'expires_in_days',
      ],
      [
        { name: 'x', rate_limit_per_minute: 2_000_000 },
        'The rate limit per minute field must not be greater than 1000000.',
        'rate_limit_per_minute',
      ],
      [{ name: 'x', scopes: 'check-status' }, 'The scopes field must be an array.', 'scopes'],
    ] as const) {
      const res = await json(ada, 'POST', '/api-keys', csrf, body);
      expect([res.status, await res.json()]).toEqual([422, { message, errors: { [field]: [message] } }]);
    }
  });

  it('a double-clicked create makes one key: the other request is told the name is taken (422)', async () => {
    const body = { name: 'double click' };
    const [a, b] = await Promise.all([
      json(ada, 'POST', '/api-keys', csrf, body),
      json(ada, 'POST', '/api-keys', csrf, body),
    ]);
    expect([a.status, b.status].sort()).toEqual([201, 422]);
    const loser = a.status === 422 ? a : b;
    expect(await loser.json()).toMatchObject({
      errors: { name: ['You already have an API key with this name.'] },
    });
    expect((await list()).filter((k) => k.name === 'double click')).toHaveLength(1);
  });

  it('a revoke racing uses: every use that starts after the revoke answered is refused', async () => {
    const { key, api_key } = await create({ name: 'race' });
    expect((await t.call('/api/user', key)).status).toBe(200);
    const uses = Array.from({ length: 10 }, () => t.call('/api/user', key).then((r) => r.status));
    const revoke = json(ada, 'DELETE', `/api-keys/${api_key.id}`, csrf).then((r) => r.status);
    const [revoked, ...during] = await Promise.all([revoke, ...uses]);
    expect(revoked).toBe(204);
    for (const status of during) expect([200, 401]).toContain(status);
    const after = await Promise.all(Array.from({ length: 5 }, () => t.call('/api/user', key)));
    expect(after.map((r) => r.status)).toEqual([401, 401, 401, 401, 401]);
  });

  it('DELETE twice at once, both finding the key first: one 204, the other 404; ApiKeyRevoked raised once', async () => {
    const { api_key } = await create({ name: 'twice' });
    const revoked: string[] = [];
    const stop = t.app.events.listen(ApiKeyRevoked, (e) => {
      revoked.push(e.keyId);
    });
    const lookup = holdUntilBoth(t.app.container.make(ApiKeys), 'findForUser');
    const answers = await Promise.all(
      [1, 2].map(() => json(ada, 'DELETE', `/api-keys/${api_key.id}`, csrf)),
    ).finally(() => {
      lookup.mockRestore();
      stop();
    });
    const statuses = answers.map((res) => res.status);
    expect([...statuses].sort()).toEqual([204, 404]);
    expect(await answers[statuses.indexOf(404)]!.json()).toEqual({ message: 'Not Found' });
    expect(revoked).toEqual([api_key.id]);
  });

  it('last_used_at is set after a use (batched, not a write per request)', async () => {
    const { key, api_key } = await create({ name: 'used' });
    expect((await list()).find((k) => k.id === api_key.id)!.last_used_at).toBeNull();
    const lastUsed = t.app.container.make(LastUsed);
    const record = vi.spyOn(lastUsed, 'record');
    for (let i = 0; i < 5; i++) expect((await t.call('/api/user', key)).status).toBe(200);
    // Five requests, one recorded use (at most one a minute per credential).
    expect(record.mock.calls.filter(([table]) => table === 'api_keys')).toHaveLength(1);
    record.mockRestore();
    await vi.waitFor(
      async () =>
        expect((await list()).find((k) => k.id === api_key.id)!.last_used_at).toBe(
          t.clock.now().toISOString(),
        ),
      {
        timeout: 5_000,
      },
    );
  });

  it('a personal access token and its client show their last use too', async () => {
    const { accessToken, token } = await t.ada.createToken('used token', []);
    expect((await t.call('/api/user', accessToken)).status).toBe(200);
    await vi.waitFor(
      async () => {
        const res = await json(ada, 'GET', '/oauth/personal-access-tokens', csrf);
        const listed = ((await res.json()) as { id: string; last_used_at: string | null }[]).find(
          (x) => x.id === token.id,
        );
        expect(listed?.last_used_at).toBe(t.clock.now().toISOString());
        const client = await t.app.container.make(OAuthStoreKey).clients.find(token.clientId);
        expect(client?.lastUsedAt).toBe(t.clock.now().toISOString());
      },
      { timeout: 5_000 },
    );
  });

  it('an expired key is refused (by the injected clock)', async () => {
    const { key } = await create({ name: 'short-lived', expires_in_days: 1 });
    expect((await t.call('/api/user', key)).status).toBe(200);
    t.clock.advanceDays(2);
    try {
      const res = await t.call('/api/user', key);
      expect(res.status).toBe(401);
      expect(res.headers.get('www-authenticate')).toMatch(/invalid_token/);
    } finally {
      t.clock.advanceDays(-2);
    }
  });

  it('a per-key rate limit answers 429 with Retry-After beyond it', async () => {
    const { key } = await create({ name: 'limited', rate_limit_per_minute: 3 });
    const statuses = [];
    for (let i = 0; i < 5; i++) statuses.push((await t.call('/api/user', key)).status);
    expect(statuses).toEqual([200, 200, 200, 429, 429]);
    const res = await t.call('/api/user', key);
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
  });
});
