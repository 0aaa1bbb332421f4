import * as oauth from 'oauth4webapi';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AccessTokenVerifier } from '../../src/oauth/jwt/access-token-verifier.js';
import { ENGINES } from '../support/engines.js';
import { ADA, approvalFields, Browser, insecure, type OAuthTestApp, oauthApp, REDIRECT } from './support.js';

/** Every grant end to end over HTTP, driven by an independent client library (oauth4webapi). */
describe.each(ENGINES)('OAuth grants with oauth4webapi (%s)', (engine) => {
  let t: OAuthTestApp;

  beforeAll(async () => {
    t = await oauthApp({ engine });
  });
  afterAll(async () => t.stop());

  /** Logs Ada in, opens the authorization URL, approves on the real page; returns the callback URL. */
  async function approveInBrowser(authorizationUrl: URL): Promise<URL> {
    const browser = new Browser(t.url);
    await browser.login(ADA);
    const page = await browser.get(authorizationUrl.pathname + authorizationUrl.search);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('Test App');
    const decision = await browser.post('/oauth/authorize', approvalFields(html));
    expect(decision.status).toBe(302);
    return new URL(decision.headers.get('location')!);
  }

  it('RFC 6749 §4.1 + RFC 7636: authorization code with PKCE for a public client', async () => {
    const { client: record } = await t.createClient({ confidential: false });
    const client: oauth.Client = { client_id: record.id };
    const verifier = oauth.generateRandomCodeVerifier();
    const state = oauth.generateRandomState();
    const url = new URL(t.as.authorization_endpoint!);
    url.search = new URLSearchParams({
      client_id: record.id,
      redirect_uri: REDIRECT,
      response_type: 'code',
      scope: 'check-status',
      state,
      code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
    }).toString();

    const callback = await approveInBrowser(url);
    expect(callback.origin + callback.pathname).toBe(REDIRECT);
    const params = oauth.validateAuthResponse(t.as, client, callback, state);
    const response = await oauth.authorizationCodeGrantRequest(
      t.as,
      client,
      oauth.None(),
      params,
      REDIRECT,
      verifier,
      insecure,
    );
    expect(response.headers.get('cache-control')).toBe('no-store');
    const tokens = await oauth.processAuthorizationCodeResponse(t.as, client, response);
    expect(tokens.token_type).toBe('bearer');
    expect(tokens.refresh_token).toBeTypeOf('string');
    expect(tokens.expires_in).toBe(365 * 24 * 3600);

    const claims = await t.app.container.make(AccessTokenVerifier).verify(tokens.access_token);
    expect(claims).toMatchObject({ sub: String(t.ada.id), aud: record.id, client_id: record.id });
    expect(claims.scopes).toEqual(['check-status']);
  });

  it('RFC 6749 §4.1: authorization code for a confidential client (client_secret_basic)', async () => {
    const { client: record, plainSecret } = await t.createClient();
    const client: oauth.Client = { client_id: record.id };
    const verifier = oauth.generateRandomCodeVerifier();
    const url = new URL(t.as.authorization_endpoint!);
    url.search = new URLSearchParams({
      client_id: record.id,
      redirect_uri: REDIRECT,
      response_type: 'code',
      scope: 'place-orders check-status',
      code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
    }).toString();
    const callback = await approveInBrowser(url);
    const params = oauth.validateAuthResponse(t.as, client, callback, oauth.expectNoState);
    const response = await oauth.authorizationCodeGrantRequest(
      t.as,
      client,
      oauth.ClientSecretBasic(plainSecret!),
      params,
      REDIRECT,
      verifier,
      insecure,
    );
    const tokens = await oauth.processAuthorizationCodeResponse(t.as, client, response);
    expect(tokens.scope).toBe('place-orders check-status');
  });

  it('RFC 6749 §4.3: password grant, username = e-mail, with `*`', async () => {
    const { client: record, plainSecret } = await t.createClient({ password: true });
    const client: oauth.Client = { client_id: record.id };
    const response = await oauth.genericTokenEndpointRequest(
      t.as,
      client,
      oauth.ClientSecretPost(plainSecret!),
      'password',
      { username: ADA.email, password: ADA.password, scope: '*' },
      insecure,
    );
    const tokens = await oauth.processGenericTokenEndpointResponse(t.as, client, response);
    expect(tokens.refresh_token).toBeTypeOf('string');
    const claims = await t.app.container.make(AccessTokenVerifier).verify(tokens.access_token);
    expect(claims.scopes).toEqual(['*']);
    expect(claims.sub).toBe(String(t.ada.id));
  });

  it('RFC 6749 §4.4: client credentials, no refresh token', async () => {
    const { client: record, plainSecret } = await t.createClient();
    const client: oauth.Client = { client_id: record.id };
    const response = await oauth.clientCredentialsGrantRequest(
      t.as,
      client,
      oauth.ClientSecretBasic(plainSecret!),
      { scope: 'check-status' },
      insecure,
    );
    const tokens = await oauth.processClientCredentialsResponse(t.as, client, response);
    expect(tokens.refresh_token).toBeUndefined();
    const claims = await t.app.container.make(AccessTokenVerifier).verify(tokens.access_token);
    expect(claims).toMatchObject({ sub: record.id, client_id: record.id, scope: 'check-status' });
  });

  it('RFC 6749 §6: refresh rotates the refresh token and may narrow the scope', async () => {
    const { client: record, plainSecret } = await t.createClient({ password: true });
    const client: oauth.Client = { client_id: record.id };
    const auth = oauth.ClientSecretBasic(plainSecret!);
    const first = await oauth.processGenericTokenEndpointResponse(
      t.as,
      client,
      await oauth.genericTokenEndpointRequest(
        t.as,
        client,
        auth,
        'password',
        { username: ADA.email, password: ADA.password, scope: 'place-orders check-status' },
        insecure,
      ),
    );
    const refreshed = await oauth.processRefreshTokenResponse(
      t.as,
      client,
      await oauth.refreshTokenGrantRequest(t.as, client, auth, first.refresh_token!, {
        ...insecure,
        additionalParameters: { scope: 'check-status' },
      }),
    );
    expect(refreshed.refresh_token).not.toBe(first.refresh_token);
    expect(refreshed.scope).toBe('check-status');
    const verifier = t.app.container.make(AccessTokenVerifier);
    const oldClaims = await verifier.verify(first.access_token);
    const newClaims = await verifier.verify(refreshed.access_token);
    expect(newClaims.scopes).toEqual(['check-status']);
    // The refreshed-away access token is revoked in the store.
    const store = t.app.container.make((await import('../../src/oauth/stores/contracts.js')).OAuthStoreKey);
    expect((await store.accessTokens.find(oldClaims.jti))?.revoked).toBe(true);
    expect((await store.accessTokens.find(newClaims.jti))?.revoked).toBe(false);

    // Refresh again with the new refresh token and an empty scope: the grant is kept.
    const again = await oauth.processRefreshTokenResponse(
      t.as,
      client,
      await oauth.refreshTokenGrantRequest(t.as, client, auth, refreshed.refresh_token!, insecure),
    );
    expect(again.scope).toBe('check-status');
  });

  it('RFC 7009 and RFC 7662: revocation and introspection', async () => {
    const { client: record, plainSecret } = await t.createClient();
    const client: oauth.Client = { client_id: record.id };
    const auth = oauth.ClientSecretBasic(plainSecret!);
    const tokens = await oauth.processClientCredentialsResponse(
      t.as,
      client,
      await oauth.clientCredentialsGrantRequest(t.as, client, auth, {}, insecure),
    );
    const active = await oauth.processIntrospectionResponse(
      t.as,
      client,
      await oauth.introspectionRequest(t.as, client, auth, tokens.access_token, insecure),
    );
    expect(active).toMatchObject({ active: true, client_id: record.id, token_type: 'Bearer' });
    await oauth.processRevocationResponse(
      await oauth.revocationRequest(t.as, client, auth, tokens.access_token, insecure),
    );
    const inactive = await oauth.processIntrospectionResponse(
      t.as,
      client,
      await oauth.introspectionRequest(t.as, client, auth, tokens.access_token, insecure),
    );
    expect(inactive.active).toBe(false);
  });

  it('RFC 8414: metadata discovered with oauth4webapi, and the JWKS verifies a token', async () => {
    const issuer = new URL(t.as.issuer);
    const response = await fetch(`${t.url}/.well-known/oauth-authorization-server`);
    const as = await oauth.processDiscoveryResponse(issuer, response);
    expect(as.token_endpoint).toBe(`${t.as.issuer}/oauth/token`);
    expect(as.code_challenge_methods_supported).toEqual(['S256']);
    const jwks = (await (await fetch(`${t.url}/oauth/jwks`)).json()) as {
      keys: { kid: string; alg: string }[];
    };
    expect(jwks.keys[0]).toMatchObject({ alg: 'RS256', use: 'sig', kty: 'RSA' });
    const { createLocalJWKSet, jwtVerify } = await import('jose');
    const { client: record, plainSecret } = await t.createClient();
    const client: oauth.Client = { client_id: record.id };
    const tokens = await oauth.processClientCredentialsResponse(
      t.as,
      client,
      await oauth.clientCredentialsGrantRequest(
        t.as,
        client,
        oauth.ClientSecretPost(plainSecret!),
        {},
        insecure,
      ),
    );
    const { protectedHeader } = await jwtVerify(tokens.access_token, createLocalJWKSet(jwks as never), {
      currentDate: t.clock.now(),
    });
    expect(protectedHeader).toMatchObject({ typ: 'at+jwt', kid: jwks.keys[0]!.kid });
  });
});
