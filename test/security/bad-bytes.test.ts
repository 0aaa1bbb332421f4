import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/core/logger.js';
import { Clients } from '../../src/oauth/index.js';
import type { Browser } from '../auth/browser.js';
import { type ReferenceServer, startReferenceServer } from '../browser/server.js';
import { ENGINES } from '../support/engines.js';
import { httpBrowser, jsonHeaders, register } from './http-browser.js';

const NUL = '\u0000';
const FORM = { 'content-type': 'application/x-www-form-urlencoded' };
const basic = (id: string, secret: string) => `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;

// A NUL byte is a value PostgreSQL refuses in any text parameter: each one must be stopped by a
// validator or an id check before a query, and answered 4xx — on both engines, with nothing
// logged at error level (no stack trace per request).
describe.each(ENGINES)('control characters and impossible ids: 4xx before any query (%s)', (engine) => {
  let server: ReferenceServer;
  let browser: Browser;
  let headers: Record<string, string>;
  let clientId: string;
  let password: { id: string; secret: string };
  const logs: { level: number; msg: string; err?: unknown }[] = [];

  beforeAll(async () => {
    const logger = createLogger('debug', { write: (line: string) => void logs.push(JSON.parse(line)) });
    server = await startReferenceServer({}, { logger, engine });
    const created = await server.app.container
      .make(Clients)
      .create({ name: 'Password', redirect: server.url, password: true });
    password = { id: created.client.id, secret: created.plainSecret! };
    browser = httpBrowser(server.url);
    await register(browser, 'nul@example.com');
    headers = await jsonHeaders(browser);
    const client = await browser.request('/oauth/clients', {
      method: 'POST',
      headers,
      body: JSON.stringify({ name: 'Mine', redirect: 'https://client.example/cb' }),
    });
    clientId = (await client.json()).id;
  }, 60_000);
  afterAll(() => server?.stop());

  const post = (path: string, fields: Record<string, string>, extra: Record<string, string> = {}) =>
    fetch(`${server.url}${path}`, {
      method: 'POST',
      headers: { ...FORM, ...extra },
      body: new URLSearchParams(fields),
    });

  it('RFC 6749 §2.3.1: a client_id that cannot be an id is an unknown client at every endpoint', async () => {
    for (const path of ['/oauth/token', '/oauth/revoke', '/oauth/introspect']) {
      for (const id of [`${NUL}x`, `x${NUL}`, 'a b', 'x'.repeat(65), '"quoted"']) {
        const inForm = await post(path, {
          grant_type: 'client_credentials',
          client_id: id,
          client_secret: 's',
          token: 't',
        });
        expect(inForm.status, `${path} ${JSON.stringify(id)}`).toBe(401);
        expect((await inForm.json()).error).toBe('invalid_client');
        const inHeader = await post(
          path,
          { grant_type: 'client_credentials', token: 't' },
          { authorization: basic(id, 's') },
        );
        expect(inHeader.status, `${path} Basic ${JSON.stringify(id)}`).toBe(401);
      }
    }
    const page = await browser.get(
      `/oauth/authorize?${new URLSearchParams({ client_id: `${NUL}x`, response_type: 'code', redirect_uri: 'https://client.example/cb' })}`,
    );
    expect(page.status).toBeGreaterThanOrEqual(400);
    expect(page.status).toBeLessThan(500);
  });

  it('the password grant: a NUL in the username is the wrong credentials, not a database error', async () => {
    const res = await post('/oauth/token', {
      grant_type: 'password',
      client_id: password.id,
      client_secret: password.secret,
      username: `nul${NUL}@example.com`,
      password: 'correct horse battery',
    });
    expect(res.status).toBe(400);
    expect((await res.json()).error).toBe('invalid_grant');
  });

  it('the JSON APIs: names and redirects with control characters are 422, impossible ids 404', async () => {
    const send = (method: string, path: string, body?: unknown) =>
      browser.request(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    const cases: [string, string, unknown, number][] = [
      ['POST', '/oauth/clients', { name: `a${NUL}b`, redirect: 'https://client.example/cb' }, 422],
      ['POST', '/oauth/clients', { name: 'ok', redirect: `https://client.example/c${NUL}b` }, 422],
      ['POST', '/oauth/clients', { name: 'ok', redirect: 'https://client.example/c\u0085b' }, 422],
      ['PUT', `/oauth/clients/${clientId}`, { name: `a${NUL}`, redirect: 'https://client.example/cb' }, 422],
      [
        'PUT',
        `/oauth/clients/${encodeURIComponent(`${NUL}x`)}`,
        { name: 'a', redirect: 'https://c.example/cb' },
        404,
      ],
      ['DELETE', `/oauth/clients/${encodeURIComponent(NUL)}`, undefined, 404],
      ['POST', '/oauth/personal-access-tokens', { name: `t${NUL}`, scopes: [] }, 422],
      ['DELETE', `/oauth/personal-access-tokens/${encodeURIComponent(`${NUL}x`)}`, undefined, 404],
      ['DELETE', `/oauth/tokens/${encodeURIComponent(`${NUL}x`)}`, undefined, 404],
    ];
    for (const [method, path, body, status] of cases) {
      const res = await send(method, path, body);
      expect(res.status, `${method} ${JSON.stringify(path)} ${JSON.stringify(body)}`).toBe(status);
      const text = await res.text();
      expect(text).not.toMatch(/\n\s+at /);
      if (status === 422) expect(text).toMatch(/control characters/);
    }
  });

  it('the registration and login forms: a NUL in a field is 422', async () => {
    const guest = httpBrowser(server.url);
    const fields = {
      name: 'Grace',
      email: 'grace@example.com',
      password: 'long enough',
      password_confirmation: 'long enough',
    };
    for (const bad of [{ name: `G${NUL}` }, { email: `g${NUL}@example.com` }]) {
      const res = await guest.submit('/register', { ...fields, ...bad });
      expect(res.status, JSON.stringify(bad)).toBe(422);
    }
    const login = await guest.submit('/login', { email: `nul${NUL}@example.com`, password: 'x' });
    expect(login.status).toBe(422);
  });

  it('nothing above was logged as a failure', () => {
    expect(logs.filter((line) => line.level >= 50).map((line) => line.msg)).toEqual([]);
    expect(JSON.stringify(logs)).not.toMatch(/\\n\s+at /);
  });
});
