import { decodeJwt } from 'jose';
import * as oauth from 'oauth4webapi';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ANY_ENGINE } from '../support/engines.js';
import { ADA, approvalFields, Browser, insecure, type OAuthTestApp, oauthApp, REDIRECT } from './support.js';

/** RFC 9449 §10: an authorization code bound to a DPoP key, by `dpop_jkt` or by a proof at PAR. */
describe(`DPoP authorization code binding`, () => {
  let t: OAuthTestApp;
  let ada: Browser;
  let client: oauth.Client;
  let keys: CryptoKeyPair;
  let other: CryptoKeyPair;

  beforeAll(async () => {
    t = await oauthApp({ engine: ANY_ENGINE });
    const created = await t.createClient({ confidential: false });
    const now = Math.floor(t.clock.now().getTime() / 1000);
    // The test clock is fixed: oauth4webapi's proofs follow it through the client's clock skew.
    client = { client_id: created.client.id, [oauth.clockSkew]: now - Math.floor(Date.now() / 1000) };
    keys = await oauth.generateKeyPair('ES256');
    other = await oauth.generateKeyPair('ES256');
    ada = new Browser(t.url);
    await ada.login(ADA);
  });
  afterAll(async () => t.stop());

  async function approve(query: URLSearchParams): Promise<URL> {
    const page = await ada.get(`/oauth/authorize?${query}`);
    const decision =
      page.status === 302 ? page : await ada.post('/oauth/authorize', approvalFields(await page.text()));
    return new URL(decision.headers.get('location')!);
  }

  async function authorize(extra: Record<string, string>) {
    const verifier = oauth.generateRandomCodeVerifier();
    const query = new URLSearchParams({
      client_id: client.client_id,
      redirect_uri: REDIRECT,
      response_type: 'code',
      scope: 'check-status',
      code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
      ...extra,
    });
    return { verifier, callback: await approve(query) };
  }

  const exchange = (callback: URL, verifier: string, pair?: CryptoKeyPair) =>
    oauth.authorizationCodeGrantRequest(
      t.as,
      client,
      oauth.None(),
      oauth.validateAuthResponse(t.as, client, callback),
      REDIRECT,
      verifier,
      { ...insecure, ...(pair ? { DPoP: oauth.DPoP(client, pair) } : {}) },
    );

  it('RFC 9449 §10: a code requested with dpop_jkt goes only to a proof by that key; refusals leave it usable', async () => {
    const jkt = await oauth.DPoP(client, keys).calculateThumbprint();
    const { verifier, callback } = await authorize({ dpop_jkt: jkt });

    const withoutProof = await exchange(callback, verifier);
    expect(withoutProof.status).toBe(400);
    expect(await withoutProof.json()).toMatchObject({ error: 'invalid_dpop_proof' });
    const otherKey = await exchange(callback, verifier, other);
    expect(otherKey.status).toBe(400);
    expect(await otherKey.json()).toMatchObject({ error: 'invalid_dpop_proof' });

    const tokens = await oauth.processAuthorizationCodeResponse(
      t.as,
      client,
      await exchange(callback, verifier, keys),
    );
    expect(tokens.token_type).toBe('dpop');
    expect(decodeJwt(tokens.access_token).cnf).toEqual({ jkt });
  });

  it('RFC 9449 §10: a dpop_jkt that is not a thumbprint is invalid_request, back to the client', async () => {
    const { callback } = await authorize({ dpop_jkt: 'not a thumbprint' });
    expect(callback.searchParams.get('error')).toBe('invalid_request');
  });

  it('RFC 9449 §10.1: a DPoP proof sent with a pushed authorization request binds the code to its key', async () => {
    const verifier = oauth.generateRandomCodeVerifier();
    const par = { ...t.as, pushed_authorization_request_endpoint: `${t.url}/oauth/par` };
    const params = new URLSearchParams({
      redirect_uri: REDIRECT,
      response_type: 'code',
      scope: 'check-status',
      code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
    });
    const pushed = await oauth.processPushedAuthorizationResponse(
      par,
      client,
      await oauth.pushedAuthorizationRequest(par, client, oauth.None(), params, {
        ...insecure,
        DPoP: oauth.DPoP(client, keys),
      }),
    );
    const callback = await approve(
      new URLSearchParams({ client_id: client.client_id, request_uri: pushed.request_uri }),
    );
    expect((await exchange(callback, verifier, other)).status).toBe(400);
    const tokens = await oauth.processAuthorizationCodeResponse(
      t.as,
      client,
      await exchange(callback, verifier, keys),
    );
    expect(decodeJwt(tokens.access_token).cnf).toEqual({
      jkt: await oauth.DPoP(client, keys).calculateThumbprint(),
    });
  });

  it('RFC 9449 §10.1: a pushed dpop_jkt that is not the proof key is refused', async () => {
    const res = await oauth.pushedAuthorizationRequest(
      { ...t.as, pushed_authorization_request_endpoint: `${t.url}/oauth/par` },
      client,
      oauth.None(),
      new URLSearchParams({
        redirect_uri: REDIRECT,
        response_type: 'code',
        code_challenge: await oauth.calculatePKCECodeChallenge(oauth.generateRandomCodeVerifier()),
        code_challenge_method: 'S256',
        dpop_jkt: await oauth.DPoP(client, other).calculateThumbprint(),
      }),
      { ...insecure, DPoP: oauth.DPoP(client, keys) },
    );
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error: 'invalid_dpop_proof' });
  });
});
