import * as oauth from 'oauth4webapi';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SigningAlgorithm } from '../../src/oauth/config.js';
import { ANY_ENGINE } from '../support/engines.js';
import {
  authorizeInBrowser,
  exchange,
  ISSUER,
  openIdClient,
  openIdRequest,
  publicClientFlow,
  toServer,
  verifySignatureAndAtHash,
} from './openid-support.js';
import { ADA, Browser, type OAuthTestApp, oauthApp } from './support.js';

for (const algorithm of ['RS256', 'EdDSA'] as SigningAlgorithm[]) {
  describe(`OpenID Connect: ID tokens from the authorization code flow (${algorithm})`, () => {
    let t: OAuthTestApp;
    let ada: Browser;
    let loggedInAt: number;
    let as: oauth.AuthorizationServer;

    beforeAll(async () => {
      t = await oauthApp({ engine: ANY_ENGINE, config: { oauth: { signingAlgorithm: algorithm } } });
      ada = new Browser(t.url);
      loggedInAt = Math.floor(t.clock.now().getTime() / 1000);
      await ada.login(ADA);
      // The token endpoint is answered five minutes after the login.
      t.clock.advance(300_000);
    });
    afterAll(async () => t.stop());

    it('Discovery §4: /.well-known/openid-configuration, read by oauth4webapi', async () => {
      const issuer = new URL(ISSUER);
      const res = await oauth.discoveryRequest(issuer, { algorithm: 'oidc', ...toServer(t) });
      const metadata = await oauth.processDiscoveryResponse(issuer, res);
      expect(metadata).toMatchObject({
        issuer: ISSUER,
        authorization_endpoint: `${ISSUER}/oauth/authorize`,
        token_endpoint: `${ISSUER}/oauth/token`,
        userinfo_endpoint: `${ISSUER}/oauth/userinfo`,
        jwks_uri: `${ISSUER}/oauth/jwks`,
        response_types_supported: ['code'],
        subject_types_supported: ['public'],
        id_token_signing_alg_values_supported: [algorithm],
        code_challenge_methods_supported: ['S256'],
        request_uri_parameter_supported: true,
      });
      expect(metadata.scopes_supported).toEqual([
        'place-orders',
        'check-status',
        'openid',
        'profile',
        'email',
      ]);
      expect(metadata.claims_supported).toEqual(
        expect.arrayContaining(['sub', 'iss', 'auth_time', 'nonce', 'name', 'email', 'email_verified']),
      );
      // RFC 8414's document lists the OpenID scopes too, beside the application's.
      const plain = await (await fetch(`${t.url}/.well-known/oauth-authorization-server`)).json();
      expect(plain).toMatchObject({ scopes_supported: metadata.scopes_supported });
      as = {
        ...metadata,
        authorization_endpoint: t.as.authorization_endpoint,
        token_endpoint: t.as.token_endpoint,
      };
    });

    it('Core §3.1.3.3: a public client with PKCE gets an ID token oauth4webapi validates (nonce, auth_time, azp)', async () => {
      const { clientId, client, request, response } = await publicClientFlow(t, ada, {
        client: { id_token_signed_response_alg: algorithm },
      });
      const tokens = await oauth.processAuthorizationCodeResponse(as ?? t.as, client, response, {
        expectedNonce: request.nonce,
        requireIdToken: true,
      });
      const claims = oauth.getValidatedIdTokenClaims(tokens)!;
      const now = Math.floor(t.clock.now().getTime() / 1000);
      expect(claims).toMatchObject({
        iss: ISSUER,
        sub: String(t.ada.id),
        aud: clientId,
        azp: clientId,
        nonce: request.nonce,
        auth_time: loggedInAt,
        iat: now,
        exp: now + 3600,
        name: ADA.name,
        email: ADA.email,
      });
      // Core §5.1: the users table records no verification, so the address is not called verified.
      expect(claims.email_verified).toBe(false);
      expect(tokens.scope).toBe('openid profile email');
      await verifySignatureAndAtHash(t, tokens.id_token!, tokens.access_token);
    });

    it('Core §3.1.3.7 (11): a client expecting another nonce refuses the ID token', async () => {
      const { client, response } = await publicClientFlow(t, ada, {
        client: { id_token_signed_response_alg: algorithm },
      });
      await expect(
        oauth.processAuthorizationCodeResponse(t.as, client, response, {
          expectedNonce: oauth.generateRandomNonce(),
        }),
      ).rejects.toThrow(/unexpected ID Token "nonce" claim value/);
    });

    it('Core §5.4: the claims follow the granted scopes; no nonce sent, none returned', async () => {
      const { client: record, plainSecret } = await t.createClient();
      const client = openIdClient(t, record.id, { id_token_signed_response_alg: algorithm });
      const request = await openIdRequest(record.id, { scope: 'openid email check-status' });
      const { nonce: _nonce, ...withoutNonce } = Object.fromEntries(
        new URL(request.path, t.url).searchParams,
      );
      const path = `/oauth/authorize?${new URLSearchParams(withoutNonce)}`;
      const response = await exchange(
        t,
        client,
        oauth.ClientSecretBasic(plainSecret!),
        await authorizeInBrowser(ada, path),
        request,
      );
      const tokens = await oauth.processAuthorizationCodeResponse(t.as, client, response, {
        requireIdToken: true,
      });
      const claims = oauth.getValidatedIdTokenClaims(tokens)!;
      expect(claims.email).toBe(ADA.email);
      expect(claims).not.toHaveProperty('name');
      expect(claims).not.toHaveProperty('nonce');
    });

    it('Core §3.1.2.1: without the openid scope the response has no ID token', async () => {
      const { client: record } = await t.createClient({ confidential: false });
      const client = openIdClient(t, record.id);
      const request = await openIdRequest(record.id, { scope: 'check-status' });
      const response = await exchange(
        t,
        client,
        oauth.None(),
        await authorizeInBrowser(ada, request.path),
        request,
      );
      const body = (await response.clone().json()) as Record<string, unknown>;
      expect(body).not.toHaveProperty('id_token');
      expect(body.scope).toBe('check-status');
      await oauth.processAuthorizationCodeResponse(t.as, client, response);
    });
  });
}

describe(`OpenID Connect: the claims mapping hook`, () => {
  let t: OAuthTestApp;

  beforeAll(async () => {
    t = await oauthApp({
      engine: ANY_ENGINE,
      oauth: {
        oidc: {
          claims: (user, scopes) => ({
            ...(scopes.includes('profile') ? { name: user.name.toUpperCase(), locale: 'en-GB' } : {}),
            ...(scopes.includes('email') ? { email: user.email, email_verified: true } : {}),
            // `sub` and the ID token's own claims cannot be overridden.
            sub: 'someone-else',
            iss: 'https://evil.example',
          }),
        },
      },
    });
  });
  afterAll(async () => t.stop());

  it("the hook decides the claims; sub, iss and aud stay the server's", async () => {
    const ada = new Browser(t.url);
    await ada.login(ADA);
    const { client, request, response } = await publicClientFlow(t, ada);
    const tokens = await oauth.processAuthorizationCodeResponse(t.as, client, response, {
      expectedNonce: request.nonce,
    });
    expect(oauth.getValidatedIdTokenClaims(tokens)).toMatchObject({
      sub: String(t.ada.id),
      iss: ISSUER,
      name: ADA.name.toUpperCase(),
      locale: 'en-GB',
      email_verified: true,
    });
  });
});
