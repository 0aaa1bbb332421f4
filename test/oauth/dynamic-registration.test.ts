import * as oauth from 'oauth4webapi';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ClientRegistrations } from '../../src/oauth/registration/client-registrations.js';
import { ENGINES } from '../support/engines.js';
import { insecure, type OAuthTestApp, oauthApp } from './support.js';

const ISSUER = 'http://localhost';
const NATIVE = 'http://127.0.0.1/callback';

function register(t: OAuthTestApp, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(`${t.url}/oauth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

/** The registration endpoints of the server under test (oauth4webapi derives them from metadata). */
function asOf(t: OAuthTestApp): oauth.AuthorizationServer {
  return { ...t.as, registration_endpoint: `${t.url}/oauth/register` };
}

/** Registration management (RFC 7592) at the client's URI, on the test server. */
function manage(t: OAuthTestApp, uri: string, token: string, init: RequestInit = {}): Promise<Response> {
  return fetch(uri.replace(ISSUER, t.url), {
    ...init,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', ...init.headers },
  });
}

describe.each(ENGINES)('dynamic client registration, closed by default (%s)', (engine) => {
  let t: OAuthTestApp;
  beforeAll(async () => {
    t = await oauthApp({ engine });
  });
  afterAll(async () => t.stop());

  it('RFC 7591: closed, POST /oauth/register is 404 and the metadata has no registration_endpoint', async () => {
    const res = await register(t, { redirect_uris: [NATIVE], token_endpoint_auth_method: 'none' });
    expect(res.status).toBe(404);
    const metadata = await (await fetch(`${t.url}/.well-known/oauth-authorization-server`)).json();
    expect(metadata).not.toHaveProperty('registration_endpoint');
  });
});

describe.each(ENGINES)('dynamic client registration, open (%s)', (engine) => {
  let t: OAuthTestApp;
  beforeAll(async () => {
    t = await oauthApp({
      engine,
      config: {
        oauth: {
          registration: 'open',
          throttle: { register: { address: { points: 1000, durationSeconds: 3600 } } },
        },
      },
    });
  });
  afterAll(async () => t.stop());

  it('RFC 8414 §2: the metadata advertises registration_endpoint', async () => {
    const metadata = await (await fetch(`${t.url}/.well-known/oauth-authorization-server`)).json();
    expect(metadata).toMatchObject({ registration_endpoint: `${ISSUER}/oauth/register` });
  });

  it('RFC 7591 §3.2.1: a public native client registers, then runs the code flow with PKCE to the token endpoint', async () => {
    const response = await oauth.dynamicClientRegistrationRequest(
      asOf(t),
      {
        client_name: 'Claude Desktop',
        redirect_uris: [NATIVE],
        grant_types: ['authorization_code', 'refresh_token'],
        token_endpoint_auth_method: 'none',
        scope: 'check-status',
      },
      insecure,
    );
    expect(response.status).toBe(201);
    expect(response.headers.get('cache-control')).toBe('no-store');
    const client = await oauth.processDynamicClientRegistrationResponse(response);
    expect(client).toMatchObject({
      client_name: 'Claude Desktop',
      redirect_uris: [NATIVE],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
      scope: 'check-status',
      registration_client_uri: `${ISSUER}/oauth/register/${client.client_id}`,
    });
    expect(client).not.toHaveProperty('client_secret');
    expect(client.registration_access_token).toBeTypeOf('string');
    expect(client.client_id_issued_at).toBeTypeOf('number');
    // The registration made a real client: the authorization endpoint knows it (login page, not an error).
    const authorize = await fetch(
      `${t.url}/oauth/authorize?${new URLSearchParams({
        client_id: client.client_id,
        redirect_uri: 'http://127.0.0.1:53123/callback',
        response_type: 'code',
        code_challenge: await oauth.calculatePKCECodeChallenge(oauth.generateRandomCodeVerifier()),
        code_challenge_method: 'S256',
      })}`,
      { redirect: 'manual' },
    );
    expect(authorize.status).toBe(302);
    expect(authorize.headers.get('location')).toContain('/login');
  });

  it('RFC 7591 §3.2.1: a confidential client gets a secret that works at the token endpoint', async () => {
    const client = await oauth.processDynamicClientRegistrationResponse(
      await oauth.dynamicClientRegistrationRequest(
        asOf(t),
        { grant_types: ['client_credentials'], token_endpoint_auth_method: 'client_secret_basic' },
        insecure,
      ),
    );
    expect(client.client_secret).toBeTypeOf('string');
    expect(client.client_secret_expires_at).toBe(0);
    expect(client.response_types).toEqual([]);
    const tokens = await oauth.processClientCredentialsResponse(
      t.as,
      client,
      await oauth.clientCredentialsGrantRequest(
        t.as,
        client,
        oauth.ClientSecretBasic(client.client_secret as string),
        {},
        insecure,
      ),
    );
    expect(tokens.access_token).toBeTypeOf('string');
  });

  it('RFC 7591 §3.2.2: bad redirect URIs are invalid_redirect_uri, other bad metadata invalid_client_metadata', async () => {
    const cases: [unknown, string][] = [
      [{ redirect_uris: ['javascript:alert(1)'] }, 'invalid_redirect_uri'],
      [
        { redirect_uris: ['http://evil.example/cb'], token_endpoint_auth_method: 'none' },
        'invalid_redirect_uri',
      ],
      [{ redirect_uris: ['https://app.example/cb#frag'] }, 'invalid_redirect_uri'],
      [{ redirect_uris: [] }, 'invalid_redirect_uri'],
      [{ redirect_uris: ['https://a.example/cb,https://b.example/cb'] }, 'invalid_redirect_uri'],
      [{ redirect_uris: 'https://app.example/cb' }, 'invalid_client_metadata'],
      [{ redirect_uris: ['https://app.example/cb'], grant_types: ['password'] }, 'invalid_client_metadata'],
      [
        { grant_types: ['client_credentials'], token_endpoint_auth_method: 'none' },
        'invalid_client_metadata',
      ],
      [
        { redirect_uris: ['https://app.example/cb'], token_endpoint_auth_method: 'private_key_jwt' },
        'invalid_client_metadata',
      ],
      [{ redirect_uris: ['https://app.example/cb'], response_types: ['token'] }, 'invalid_client_metadata'],
      [
        { redirect_uris: ['https://app.example/cb'], scope: 'place-orders launch-missiles' },
        'invalid_client_metadata',
      ],
      ['not json', 'invalid_client_metadata'],
    ];
    for (const [body, error] of cases) {
      const res = await register(t, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(await res.json(), JSON.stringify(body)).toMatchObject({ error });
    }
  });

  it('RFC 7592 §2: read, replace and delete with the registration access token; after DELETE the token is refused', async () => {
    const client = await oauth.processDynamicClientRegistrationResponse(
      await oauth.dynamicClientRegistrationRequest(
        asOf(t),
        { client_name: 'Editor', redirect_uris: ['https://editor.example/cb'] },
        insecure,
      ),
    );
    const uri = client.registration_client_uri as string;
    const token = client.registration_access_token as string;

    const read = await manage(t, uri, token);
    expect(read.status).toBe(200);
    expect(await read.json()).toMatchObject({ client_id: client.client_id, client_name: 'Editor' });
    expect((await manage(t, uri, 'wrong-token')).status).toBe(401);
    expect((await manage(t, uri, '', { headers: { authorization: '' } })).status).toBe(401);

    const replaced = await manage(t, uri, token, {
      method: 'PUT',
      body: JSON.stringify({
        client_id: client.client_id,
        client_name: 'Editor 2',
        redirect_uris: ['https://editor.example/callback'],
      }),
    });
    expect(replaced.status).toBe(200);
    expect(await replaced.json()).toMatchObject({
      client_name: 'Editor 2',
      redirect_uris: ['https://editor.example/callback'],
    });
    const switched = await manage(t, uri, token, {
      method: 'PUT',
      body: JSON.stringify({
        client_id: client.client_id,
        redirect_uris: ['https://editor.example/cb'],
        token_endpoint_auth_method: 'none',
      }),
    });
    expect(switched.status).toBe(400);
    expect(await switched.json()).toMatchObject({ error: 'invalid_client_metadata' });

    const deleted = await manage(t, uri, token, { method: 'DELETE' });
    expect(deleted.status).toBe(204);
    for (const method of ['GET', 'PUT', 'DELETE']) {
      const again = await manage(t, uri, token, {
        method,
        body:
          method === 'PUT'
            ? JSON.stringify({ client_id: client.client_id, redirect_uris: [NATIVE] })
            : undefined,
      });
      expect(again.status, method).toBe(401);
    }
    // The client itself is gone: its secret no longer authenticates.
    const tokenRes = await fetch(`${t.url}/oauth/token`, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        authorization: `Basic ${Buffer.from(`${client.client_id}:${client.client_secret}`).toString('base64')}`,
      },
      body: 'grant_type=client_credentials',
    });
    expect(tokenRes.status).toBe(401);
  });

  it('RFC 7592 §2.3: two DELETEs at once: one 204, the other 401', async () => {
    const client = await oauth.processDynamicClientRegistrationResponse(
      await oauth.dynamicClientRegistrationRequest(
        asOf(t),
        { redirect_uris: ['https://twice.example/cb'] },
        insecure,
      ),
    );
    const uri = client.registration_client_uri as string;
    const token = client.registration_access_token as string;
    const statuses = await Promise.all([
      manage(t, uri, token, { method: 'DELETE' }),
      manage(t, uri, token, { method: 'DELETE' }),
    ]).then((all) => all.map((res) => res.status).sort());
    expect(statuses).toEqual([204, 401]);
  });
});

describe.each(ENGINES)('dynamic client registration with initial access tokens (%s)', (engine) => {
  let t: OAuthTestApp;
  beforeAll(async () => {
    t = await oauthApp({ engine, config: { oauth: { registration: 'token' } } });
  });
  afterAll(async () => t.stop());

  it('RFC 7591 §3: without an initial access token 401; with one 201; an expired one 401', async () => {
    const body = { redirect_uris: ['https://gated.example/cb'] };
    const without = await register(t, body);
    expect(without.status).toBe(401);
    expect(without.headers.get('www-authenticate')).toMatch(/^Bearer/);
    expect((await register(t, body, { authorization: 'Bearer not-a-token' })).status).toBe(401);

    const registrations = t.app.container.make(ClientRegistrations);
    const { token } = await registrations.createInitialToken(3600);
    const client = await oauth.processDynamicClientRegistrationResponse(
      await oauth.dynamicClientRegistrationRequest(asOf(t), body, { ...insecure, initialAccessToken: token }),
    );
    expect(client.client_id).toBeTypeOf('string');

    const short = await registrations.createInitialToken(60);
    t.clock.advance(61_000);
    const expired = await register(t, body, { authorization: `Bearer ${short.token}` });
    expect(expired.status).toBe(401);
    expect(expired.headers.get('www-authenticate')).toContain('error="invalid_token"');
  });
});

describe.each(ENGINES)('dynamic client registration, limited per address (%s)', (engine) => {
  let t: OAuthTestApp;
  beforeAll(async () => {
    t = await oauthApp({
      engine,
      config: {
        oauth: {
          registration: 'open',
          throttle: { register: { address: { points: 3, durationSeconds: 3600 } } },
        },
      },
    });
  });
  afterAll(async () => t.stop());

  it('every POST counts for its address, refused or not: the fourth within the hour is 429 with Retry-After', async () => {
    expect((await register(t, { redirect_uris: ['https://many.example/cb'] })).status).toBe(201);
    expect((await register(t, { redirect_uris: ['javascript:x'] })).status).toBe(400);
    expect((await register(t, { redirect_uris: ['https://many.example/cb'] })).status).toBe(201);
    const refused = await register(t, { redirect_uris: ['https://many.example/cb'] });
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    t.clock.advance(3_601_000);
    expect((await register(t, { redirect_uris: ['https://many.example/cb'] })).status).toBe(201);
  });
});
