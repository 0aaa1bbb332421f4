import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Users } from '../../src/auth/users.js';
import { Clients, type CreatedClient } from '../../src/oauth/index.js';
import type { Browser } from '../auth/browser.js';
import { type ReferenceServer, startReferenceServer } from '../browser/server.js';
import { ENGINES } from '../support/engines.js';
import { httpBrowser, jsonHeaders, register } from './http-browser.js';

/** RFC 6749 §4.1.2.1 / §5.2: the characters an error_description may use. */
const DESCRIPTION = /^[\x20-\x21\x23-\x5B\x5D-\x7E]*$/;
const CALLBACK = 'https://client.example/cb';
const EVIL_SCOPE = '"<script>alert(1)</script>\\ \u0001 é';

describe.each(ENGINES)('OAuth policy: introspection, error texts, per-user limits (%s)', (engine) => {
  let server: ReferenceServer;
  let browser: Browser;
  let headers: Record<string, string>;
  let own: CreatedClient;
  let other: CreatedClient;
  let resourceServer: CreatedClient;
  let passwordClient: CreatedClient;

  beforeAll(async () => {
    server = await startReferenceServer(
      { oauth: { maxClientsPerUser: 3, maxRedirectsPerClient: 2 } },
      { engine },
    );
    const clients = server.app.container.make(Clients);
    own = await clients.create({ name: 'Own', redirect: CALLBACK });
    other = await clients.create({ name: 'Other', redirect: CALLBACK });
    resourceServer = await clients.create({ name: 'API', redirect: CALLBACK, resourceServer: true });
    passwordClient = await clients.create({ name: 'First party', redirect: CALLBACK, password: true });
    await server.app.container
      .make(Users)
      .create({ name: 'Ada', email: 'ada@example.com', password: 'correct horse battery' });
    browser = httpBrowser(server.url);
    await register(browser, 'grace@example.com');
    headers = await jsonHeaders(browser);
  }, 60_000);
  afterAll(() => server?.stop());

  const form = (path: string, fields: Record<string, string>, client?: CreatedClient) =>
    fetch(`${server.url}${path}`, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        ...(client ? { authorization: `Basic ${btoa(`${client.client.id}:${client.plainSecret}`)}` } : {}),
      },
      body: new URLSearchParams(fields),
    });
  const tokenFor = async (client: CreatedClient) =>
    (await (await form('/oauth/token', { grant_type: 'client_credentials' }, client)).json())
      .access_token as string;
  const introspect = async (client: CreatedClient, token: string) =>
    (await form('/oauth/introspect', { token }, client)).json();

  it('RFC 7662 §2.2/§4: a client introspects its own tokens; a resource server any access token, no refresh token but its own', async () => {
    const owned = await tokenFor(own);
    const others = await tokenFor(other);
    const pair = await (
      await form(
        '/oauth/token',
        { grant_type: 'password', username: 'ada@example.com', password: 'correct horse battery' },
        passwordClient,
      )
    ).json();
    expect(await introspect(own, owned)).toMatchObject({ active: true, client_id: own.client.id });
    expect(await introspect(own, others)).toEqual({ active: false });
    expect(await introspect(own, pair.access_token)).toEqual({ active: false });
    expect(await introspect(own, pair.refresh_token)).toEqual({ active: false });
    expect(await introspect(other, owned)).toEqual({ active: false });
    expect(await introspect(resourceServer, owned)).toMatchObject({ active: true, client_id: own.client.id });
    expect(await introspect(resourceServer, pair.access_token)).toMatchObject({
      active: true,
      sub: expect.any(String),
    });
    expect(await introspect(resourceServer, pair.refresh_token)).toEqual({ active: false });
    expect(await introspect(passwordClient, pair.refresh_token)).toMatchObject({
      active: true,
      token_type: 'refresh_token',
    });
  });

  it('RFC 6749 §5.2: error_description is a fixed text in the allowed characters, never the request echoed', async () => {
    const answers = [
      await form('/oauth/token', { grant_type: 'client_credentials', scope: EVIL_SCOPE }, own),
      await form('/oauth/token', { grant_type: 'client_credentials', scope: 'a"b\\c' }, own),
      await fetch(`${server.url}/oauth/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: `grant_type=x&${encodeURIComponent(EVIL_SCOPE)}=1&${encodeURIComponent(EVIL_SCOPE)}=2`,
      }),
      await form('/oauth/token', { grant_type: EVIL_SCOPE }, own),
      await form(
        '/oauth/token',
        { grant_type: 'authorization_code', code: EVIL_SCOPE, redirect_uri: EVIL_SCOPE },
        own,
      ),
      await form('/oauth/revoke', {}, own),
    ];
    const descriptions: string[] = [];
    for (const res of answers) {
      expect(res.status).toBeGreaterThanOrEqual(400);
      expect(res.status).toBeLessThan(500);
      descriptions.push((await res.json()).error_description);
    }
    expect(descriptions[0]).toBe('A requested scope is invalid or unknown.');
    expect(descriptions[2]).toBe('A parameter was sent more than once.');
    for (const text of descriptions) {
      expect(text).toMatch(DESCRIPTION);
      expect(text).not.toMatch(/script|é/);
    }
  });

  it('RFC 6749 §4.1.2.1: an authorization error redirected to the client carries a fixed description', async () => {
    const res = await browser.get(
      `/oauth/authorize?${new URLSearchParams({
        client_id: own.client.id,
        redirect_uri: CALLBACK,
        response_type: 'code',
        scope: EVIL_SCOPE,
        state: 'xyz',
      })}`,
    );
    expect(res.status).toBe(302);
    const back = new URL(res.headers.get('location')!);
    expect(back.origin + back.pathname).toBe(CALLBACK);
    expect(back.searchParams.get('error')).toBe('invalid_scope');
    expect(back.searchParams.get('error_description')).toBe('A requested scope is invalid or unknown.');
  });

  it('per-user limits and field lengths through the JSON API: 422 with a clear message', async () => {
    const send = (method: string, path: string, body: unknown) =>
      browser.request(path, { method, headers, body: JSON.stringify(body) });
    const refused = async (res: Response, field: string, text: RegExp) => {
      expect(res.status).toBe(422);
      const body = await res.json();
      expect(body.errors[field].join(' ')).toMatch(text);
    };
    await refused(
      await send('POST', '/oauth/clients', { name: 'n'.repeat(256), redirect: CALLBACK }),
      'name',
      /255/,
    );
    const long = `https://client.example/${'x'.repeat(2000)}`;
    await refused(await send('POST', '/oauth/clients', { name: 'Long', redirect: long }), 'redirect', /2000/);
    const three = [1, 2, 3].map((n) => `https://client.example/${n}`).join(',');
    await refused(
      await send('POST', '/oauth/clients', { name: 'Many', redirect: three }),
      'redirect',
      /at most 2 redirect/,
    );
    await refused(
      await send('POST', '/oauth/personal-access-tokens', {
        name: 't',
        scopes: Array(101).fill('check-status'),
      }),
      'scopes',
      /100/,
    );

    const ids: string[] = [];
    for (const n of [1, 2, 3]) {
      const res = await send('POST', '/oauth/clients', {
        name: `App ${n}`,
        redirect: `${CALLBACK},${CALLBACK}2`,
      });
      expect(res.status).toBe(201);
      ids.push((await res.json()).id);
    }
    const fourth = await send('POST', '/oauth/clients', { name: 'App 4', redirect: CALLBACK });
    await refused(fourth.clone(), 'clients', /at most 3 OAuth clients/);
    expect((await fourth.json()).message).toMatch(/delete one to create another/);
    await refused(
      await send('PUT', `/oauth/clients/${ids[0]}`, { name: 'App 1', redirect: three }),
      'redirect',
      /at most 2/,
    );
    expect((await browser.request(`/oauth/clients/${ids[0]}`, { method: 'DELETE', headers })).status).toBe(
      204,
    );
    expect((await send('POST', '/oauth/clients', { name: 'App 5', redirect: CALLBACK })).status).toBe(201);

    // One place left, four creates sent at once (a double click, a retried request): one gets it.
    expect((await browser.request(`/oauth/clients/${ids[1]}`, { method: 'DELETE', headers })).status).toBe(
      204,
    );
    const racing = await Promise.all(
      [6, 7, 8, 9].map((n) => send('POST', '/oauth/clients', { name: `App ${n}`, redirect: CALLBACK })),
    );
    expect(racing.map((res) => res.status).sort()).toEqual([201, 422, 422, 422]);
    const listed = await browser.request('/oauth/clients', { headers });
    expect((await listed.json()) as unknown[]).toHaveLength(3);
  });
});
