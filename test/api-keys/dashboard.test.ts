import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Users } from '../../src/auth/users.js';
import { ApiKeys } from '../../src/oauth/index.js';
import { deleteFromTwoSessions } from '../app/dashboard-support.js';
import { type ReferenceServer, startReferenceServer } from '../browser/server.js';
import { Browser, tokenIn } from '../oauth/support.js';
import { ENGINES } from '../support/engines.js';
import { holdUntilBoth } from '../support/hold-until-both.js';

const ADA = { name: 'Ada Lovelace', email: 'ada@example.com', password: 'correct horse battery' };

/** `/dashboard/tokens`'s API keys as plain form posts over HTTP (what a browser without JavaScript sends). */
describe.each(ENGINES)('API keys in the dashboard, form posts (%s)', (engine) => {
  let server: ReferenceServer;
  let ada: Browser;
  let csrf: string;

  beforeAll(async () => {
    server = await startReferenceServer({}, { engine });
    await server.app.container.make(Users).create(ADA);
    ada = new Browser(server.url);
    await ada.login(ADA);
    csrf = tokenIn(await (await ada.get('/dashboard/tokens')).text());
  }, 60_000);
  afterAll(async () => server?.stop());

  const create = (fields: Record<string, string>) =>
    ada.post('/dashboard/api-keys', { _token: csrf, ...fields });
  const shownKey = (html: string) => /<code data-value="Key">([^<]+)<\/code>/.exec(html)?.[1];

  it('creates a key: 201, the key in the page once, no-store; the list then shows only its hint', async () => {
    const res = await create({ name: 'Billing sync', scopes: 'check-status', expires_in_days: '30' });
    expect(res.status).toBe(201);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const key = shownKey(await res.text())!;
    expect(key).toMatch(/^tg_test_[0-9A-Za-z]{36}$/);
    const page = await (await ada.get('/dashboard/tokens')).text();
    expect(page).toContain(`tg_test_…${key.slice(-4)}`);
    expect(page).not.toContain(key);
    const use = await fetch(`${server.url}/api/orders`, {
      headers: { accept: 'application/json', 'x-api-key': key },
    });
    expect(use.status).toBe(200);
  });

  it('a refused create answers 422 with the page, the message and what was typed', async () => {
    const res = await create({ name: 'Typo', expires_in_days: 'soon', rate_limit_per_minute: '0' });
    expect(res.status).toBe(422);
    const html = await res.text();
    expect(html).toContain('The expires in days field must be a number.');
    expect(html).toContain('The rate limit per minute field must be at least 1.');
    expect(html).toContain('value="Typo"');
    expect(shownKey(html)).toBeUndefined();
  });

  it('a double-posted form makes one key; the second post is told the name is taken', async () => {
    const [a, b] = await Promise.all([create({ name: 'Double' }), create({ name: 'Double' })]);
    expect([a.status, b.status].sort()).toEqual([201, 422]);
    const loser = a.status === 422 ? a : b;
    expect(await loser.text()).toContain('You already have an API key with this name.');
    const page = await (await ada.get('/dashboard/tokens')).text();
    expect(page.match(/<strong>Double<\/strong>/g)).toHaveLength(1);
  });

  it('revokes with a form post (_method=DELETE): 303 back with a flashed message; again: already revoked', async () => {
    const key = shownKey(await (await create({ name: 'Short-lived' })).text())!;
    const id = /action="\/dashboard\/api-keys\/(ak_[0-9a-f]{32})"/.exec(
      (await (await ada.get('/dashboard/tokens')).text()).split('Short-lived')[1]!,
    )![1]!;
    const revoke = () => ada.post(`/dashboard/api-keys/${id}`, { _token: csrf, _method: 'DELETE' });
    const res = await revoke();
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('/dashboard/tokens#api-keys');
    expect(await (await ada.get('/dashboard/tokens')).text()).toContain('API key “Short-lived” revoked.');
    const use = await fetch(`${server.url}/api/user`, { headers: { authorization: `Bearer ${key}` } });
    expect(use.status).toBe(401);
    expect((await revoke()).status).toBe(303);
    expect(await (await ada.get('/dashboard/tokens')).text()).toContain('That API key was already revoked.');
  });

  it('revoked twice at once (two sessions): revoked once; the other is told it was already revoked', async () => {
    const key = shownKey(await (await create({ name: 'Raced' })).text())!;
    const id = /action="\/dashboard\/api-keys\/(ak_[0-9a-f]{32})"/.exec(
      (await (await ada.get('/dashboard/tokens')).text()).split('Raced')[1]!,
    )![1]!;
    const flashed = await deleteFromTwoSessions(
      { server, ada, csrf },
      `/dashboard/api-keys/${id}`,
      () => holdUntilBoth(server.app.container.make(ApiKeys), 'findForUser'),
      '/dashboard/tokens#api-keys',
      { revoked: 'API key “Raced” revoked.', gone: 'That API key was already revoked.' },
    );
    expect(flashed).toEqual(['gone', 'revoked']);
    const use = await fetch(`${server.url}/api/user`, { headers: { authorization: `Bearer ${key}` } });
    expect(use.status).toBe(401);
  });

  it('refuses a form post without the CSRF token (419)', async () => {
    expect((await ada.post('/dashboard/api-keys', { name: 'No token' })).status).toBe(419);
  });
});
