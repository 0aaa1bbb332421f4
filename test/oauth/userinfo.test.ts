import * as oauth from 'oauth4webapi';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ANY_ENGINE } from '../support/engines.js';
import { publicClientFlow } from './openid-support.js';
import { ADA, Browser, basic, insecure, type OAuthTestApp, oauthApp, tokenRequest } from './support.js';

/** The RFC 6750 §3 challenge oauth4webapi read from a refused userinfo request. */
async function challengeOf(work: Promise<unknown>): Promise<oauth.WWWAuthenticateChallenge> {
  const error = await work.then(
    () => undefined,
    (err: unknown) => err,
  );
  expect(error).toBeInstanceOf(oauth.WWWAuthenticateChallengeError);
  return (error as oauth.WWWAuthenticateChallengeError).cause[0]!;
}

/** OpenID Connect Core §5.3 through oauth4webapi's userInfoRequest/processUserInfoResponse. */
describe(`OpenID Connect: the userinfo endpoint`, () => {
  let t: OAuthTestApp;
  let ada: Browser;
  let as: oauth.AuthorizationServer;

  beforeAll(async () => {
    t = await oauthApp({ engine: ANY_ENGINE });
    as = { ...t.as, userinfo_endpoint: `${t.url}/oauth/userinfo` };
    ada = new Browser(t.url);
    await ada.login(ADA);
  });
  afterAll(async () => t.stop());

  /** A token for Ada from the authorization code flow, with its ID token's `sub` when `openid` was granted. */
  async function tokensFor(scope: string) {
    const { client, request, response } = await publicClientFlow(t, ada, { params: { scope } });
    const tokens = await oauth.processAuthorizationCodeResponse(t.as, client, response, {
      expectedNonce: scope.includes('openid') ? request.nonce : oauth.expectNoNonce,
    });
    return { client, tokens, sub: oauth.getValidatedIdTokenClaims(tokens)?.sub };
  }

  it('Core §5.3.2: GET answers the claims of the granted scopes; the subject matches the ID token', async () => {
    const { client, tokens, sub } = await tokensFor('openid profile email');
    const response = await oauth.userInfoRequest(as, client, tokens.access_token, insecure);
    expect(response.headers.get('cache-control')).toBe('no-store');
    const claims = await oauth.processUserInfoResponse(as, client, sub!, response);
    expect(claims).toEqual({
      sub: String(t.ada.id),
      name: ADA.name,
      updated_at: expect.any(Number),
      email: ADA.email,
      email_verified: false,
    });
  });

  it('Core §5.3.1: POST answers the same, with the token in the Authorization header', async () => {
    const { tokens } = await tokensFor('openid email');
    const res = await fetch(`${t.url}/oauth/userinfo`, {
      method: 'POST',
      headers: { authorization: `Bearer ${tokens.access_token}` },
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ sub: String(t.ada.id), email: ADA.email, email_verified: false });
  });

  it('Core §5.3.3 / RFC 6750 §3.1: a token without the openid scope gets 403 insufficient_scope', async () => {
    const { client, tokens } = await tokensFor('check-status');
    const response = await oauth.userInfoRequest(as, client, tokens.access_token, insecure);
    expect(response.status).toBe(403);
    const challenge = await challengeOf(
      oauth.processUserInfoResponse(as, client, oauth.skipSubjectCheck, response),
    );
    expect(challenge).toMatchObject({
      scheme: 'bearer',
      parameters: { error: 'insufficient_scope', scope: 'openid' },
    });
  });

  it('RFC 6750 §3.1: no token, a cookie instead of a token, an ID token, a revoked token: 401', async () => {
    const { client, tokens } = await tokensFor('openid');
    const bare = await fetch(`${t.url}/oauth/userinfo`);
    expect(bare.status).toBe(401);
    expect(bare.headers.get('www-authenticate')).toBe(
      'Bearer resource_metadata="http://localhost/.well-known/oauth-protected-resource"',
    );
    // The browser's session is not a credential here.
    expect((await ada.get('/oauth/userinfo')).status).toBe(401);

    const withIdToken = await oauth.userInfoRequest(as, client, tokens.id_token!, insecure);
    const invalid = await challengeOf(
      oauth.processUserInfoResponse(as, client, oauth.skipSubjectCheck, withIdToken),
    );
    expect(invalid.parameters.error).toBe('invalid_token');

    const revoke = await oauth.revocationRequest(t.as, client, oauth.None(), tokens.access_token, insecure);
    await oauth.processRevocationResponse(revoke);
    const revoked = await oauth.userInfoRequest(as, client, tokens.access_token, insecure);
    expect(revoked.status).toBe(401);
    expect(revoked.headers.get('www-authenticate')).toContain('error="invalid_token"');
  });

  it('a client credentials token has no user: 401 invalid_token, even with the openid scope', async () => {
    const { client, plainSecret } = await t.createClient();
    const res = await tokenRequest(
      t,
      { grant_type: 'client_credentials', scope: 'openid' },
      { authorization: basic(client.id, plainSecret!) },
    );
    const { access_token } = (await res.json()) as { access_token: string };
    const info = await fetch(`${t.url}/oauth/userinfo`, {
      headers: { authorization: `Bearer ${access_token}` },
    });
    expect(info.status).toBe(401);
    expect(info.headers.get('www-authenticate')).toContain('error="invalid_token"');
  });
});
