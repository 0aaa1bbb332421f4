import { decodeJwt } from 'jose';
import * as oauth from 'oauth4webapi';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { currentUser } from '../../src/auth/context.js';
import { ANY_ENGINE } from '../support/engines.js';
import {
  ADA,
  approvalFields,
  Browser,
  basic,
  insecure,
  type OAuthTestApp,
  oauthApp,
  REDIRECT,
  tokenRequest,
} from './support.js';

/** The configured application URL: the issuer, and the origin of the resource identifiers. */
const ISSUER = 'http://localhost';
const MCP = `${ISSUER}/mcp`;
const API = `${ISSUER}/api`;

/** RFC 8707 end to end: the `resource` parameter, audience-bound tokens, and the guard's check. */
describe(`resource indicators`, () => {
  let t: OAuthTestApp;
  let ada: Browser;
  let publicClient: oauth.Client;
  let confidential: { client: oauth.Client; auth: oauth.ClientAuth; id: string; secret: string };

  beforeAll(async () => {
    t = await oauthApp({
      engine: ANY_ENGINE,
      config: { oauth: { protectedResources: [{ resource: MCP }, { resource: API }] } },
      setup: (app) => {
        const who = (c: Parameters<typeof currentUser>[0]) =>
          c.json({ user: currentUser(c)?.id ?? null, token: c.get('accessToken')?.id });
        app.router.get('/mcp/tools', who).middleware('auth:api');
        app.router.get('/api/orders', who).middleware('auth:api');
        app.router.get('/mcp/jobs', who).middleware('client');
        app.router.get('/api/jobs', who).middleware('client');
        app.router.get('/elsewhere', who).middleware('auth:api');
      },
    });
    publicClient = { client_id: (await t.createClient({ confidential: false })).client.id };
    const created = await t.createClient();
    confidential = {
      client: { client_id: created.client.id },
      auth: oauth.ClientSecretBasic(created.plainSecret!),
      id: created.client.id,
      secret: created.plainSecret!,
    };
    ada = new Browser(t.url);
    await ada.login(ADA);
  });
  afterAll(async () => t.stop());

  const call = (path: string, accessToken: string) =>
    fetch(`${t.url}${path}`, { headers: { authorization: `Bearer ${accessToken}` } });

  /** Authorization code + PKCE for the public client; `resource` at either endpoint or both. */
  async function codeFlow(options: { authorize?: string; token?: string }) {
    const verifier = oauth.generateRandomCodeVerifier();
    const query = new URLSearchParams({
      client_id: publicClient.client_id,
      redirect_uri: REDIRECT,
      response_type: 'code',
      scope: 'check-status',
      code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
    });
    if (options.authorize) query.set('resource', options.authorize);
    const page = await ada.get(`/oauth/authorize?${query}`);
    // Approved once, the same scopes for the same client skip the page (the consent rule).
    const decision =
      page.status === 302 ? page : await ada.post('/oauth/authorize', approvalFields(await page.text()));
    const callback = new URL(decision.headers.get('location')!);
    const params = oauth.validateAuthResponse(t.as, publicClient, callback);
    return oauth.authorizationCodeGrantRequest(t.as, publicClient, oauth.None(), params, REDIRECT, verifier, {
      ...insecure,
      ...(options.token ? { additionalParameters: { resource: options.token } } : {}),
    });
  }

  it('RFC 8707 §2.1: a token requested for a resource has it as its audience and works there, also when reused', async () => {
    const tokens = await oauth.processAuthorizationCodeResponse(
      t.as,
      publicClient,
      await codeFlow({ authorize: MCP, token: MCP }),
    );
    expect(decodeJwt(tokens.access_token)).toMatchObject({ aud: MCP, client_id: publicClient.client_id });
    // Three calls: the third is served from the verified-token cache.
    for (let i = 0; i < 3; i++) {
      const res = await call('/mcp/tools', tokens.access_token);
      expect(res.status).toBe(200);
      expect(await res.json()).toMatchObject({ user: t.ada.id });
    }
  });

  it('RFC 8707 §2 / RFC 9068 §4: a token for one resource is refused at another (401 invalid_token), cached or not', async () => {
    const tokens = await oauth.processAuthorizationCodeResponse(
      t.as,
      publicClient,
      await codeFlow({ authorize: MCP }),
    );
    expect(decodeJwt(tokens.access_token).aud).toBe(MCP); // the code carried the resource
    const refused = await call('/api/orders', tokens.access_token);
    expect(refused.status).toBe(401);
    expect(refused.headers.get('www-authenticate')).toContain('error="invalid_token"');
    expect(refused.headers.get('www-authenticate')).toContain(
      'error_description="The access token is meant for another resource."',
    );
    for (let i = 0; i < 3; i++) expect((await call('/mcp/tools', tokens.access_token)).status).toBe(200);
    // Now cached as verified: still refused at the other resource, still accepted at its own.
    expect((await call('/api/orders', tokens.access_token)).status).toBe(401);
    expect((await call('/mcp/tools', tokens.access_token)).status).toBe(200);
    // A path no configured resource holds is not a resource's: the token passes there.
    expect((await call('/elsewhere', tokens.access_token)).status).toBe(200);
  });

  it('RFC 8707 §2: client_credentials with a resource; the client middleware checks the audience too', async () => {
    const response = await oauth.clientCredentialsGrantRequest(
      t.as,
      confidential.client,
      confidential.auth,
      { resource: API, scope: 'check-status' },
      insecure,
    );
    const tokens = await oauth.processClientCredentialsResponse(t.as, confidential.client, response);
    expect(decodeJwt(tokens.access_token).aud).toBe(API);
    for (let i = 0; i < 3; i++) expect((await call('/api/jobs', tokens.access_token)).status).toBe(200);
    expect((await call('/mcp/jobs', tokens.access_token)).status).toBe(401);
  });

  it('without a resource the audience stays the client id, accepted under every resource (as before RFC 8707)', async () => {
    const tokens = await oauth.processAuthorizationCodeResponse(t.as, publicClient, await codeFlow({}));
    expect(decodeJwt(tokens.access_token).aud).toBe(publicClient.client_id);
    expect((await call('/mcp/tools', tokens.access_token)).status).toBe(200);
    expect((await call('/api/orders', tokens.access_token)).status).toBe(200);
  });

  it('RFC 8707 §2: an unknown, relative or fragment-carrying resource is invalid_target (400)', async () => {
    for (const resource of ['https://other.example/mcp', `${MCP}/`, '/mcp', `${MCP}#x`, 'not a uri']) {
      const res = await tokenRequest(
        t,
        { grant_type: 'client_credentials', resource },
        { authorization: basic(confidential.id, confidential.secret) },
      );
      expect(res.status, resource).toBe(400);
      expect(await res.json(), resource).toMatchObject({ error: 'invalid_target' });
    }
  });

  it('RFC 8707 §2: an unknown resource at the authorization endpoint goes back to the client as invalid_target', async () => {
    const query = new URLSearchParams({
      client_id: publicClient.client_id,
      redirect_uri: REDIRECT,
      response_type: 'code',
      code_challenge: await oauth.calculatePKCECodeChallenge(oauth.generateRandomCodeVerifier()),
      code_challenge_method: 'S256',
      state: 'st',
      resource: 'https://other.example/',
    });
    const res = await ada.get(`/oauth/authorize?${query}`);
    expect(res.status).toBe(302);
    const location = new URL(res.headers.get('location')!);
    expect(location.origin + location.pathname).toBe(REDIRECT);
    expect(location.searchParams.get('error')).toBe('invalid_target');
    expect(location.searchParams.get('state')).toBe('st');
  });

  it('RFC 8707 §2.2: a code bound to one resource cannot be exchanged for another', async () => {
    const res = await codeFlow({ authorize: MCP, token: API });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error: 'invalid_target' });
  });

  /** A refresh for the public client, with `resource` when given. */
  const refreshRequest = (refreshToken: string, resource?: string) =>
    oauth.refreshTokenGrantRequest(t.as, publicClient, oauth.None(), refreshToken, {
      ...insecure,
      ...(resource ? { additionalParameters: { resource } } : {}),
    });
  const refresh = async (refreshToken: string, resource?: string) =>
    oauth.processRefreshTokenResponse(t.as, publicClient, await refreshRequest(refreshToken, resource));

  it('RFC 8707 §2.2: a refresh keeps the audience, may name the same resource, never another', async () => {
    const first = await oauth.processAuthorizationCodeResponse(
      t.as,
      publicClient,
      await codeFlow({ authorize: MCP }),
    );
    const refreshed = await refresh(first.refresh_token!);
    expect(decodeJwt(refreshed.access_token).aud).toBe(MCP);
    expect((await call('/mcp/tools', refreshed.access_token)).status).toBe(200);
    expect((await call('/api/orders', refreshed.access_token)).status).toBe(401);

    const widened = await refreshRequest(refreshed.refresh_token!, API);
    expect(widened.status).toBe(400);
    expect(await widened.json()).toMatchObject({ error: 'invalid_target' });

    const same = await refresh(refreshed.refresh_token!, MCP);
    expect(decodeJwt(same.access_token).aud).toBe(MCP);
  });

  it('RFC 8707 §2.2: a refresh of a grant bound to no resource may narrow it to one', async () => {
    const first = await oauth.processAuthorizationCodeResponse(t.as, publicClient, await codeFlow({}));
    const narrowed = await refresh(first.refresh_token!, API);
    expect(decodeJwt(narrowed.access_token).aud).toBe(API);
    expect((await call('/api/orders', narrowed.access_token)).status).toBe(200);
    expect((await call('/mcp/tools', narrowed.access_token)).status).toBe(401);
    // And the next refresh keeps the narrowed audience.
    const again = await refresh(narrowed.refresh_token!);
    expect(decodeJwt(again.access_token).aud).toBe(API);
  });

  it('RFC 8707 §2: the password grant takes a resource too', async () => {
    const { client, plainSecret } = await t.createClient({ password: true });
    const res = await tokenRequest(
      t,
      { grant_type: 'password', username: ADA.email, password: ADA.password, resource: MCP },
      { authorization: basic(client.id, plainSecret!) },
    );
    expect(res.status).toBe(200);
    const body = (await res.json()) as { access_token: string };
    expect(decodeJwt(body.access_token).aud).toBe(MCP);
    expect((await call('/api/orders', body.access_token)).status).toBe(401);
  });
});
