import { createHash } from 'node:crypto';
import { createLocalJWKSet, type JSONWebKeySet, jwtVerify } from 'jose';
import * as oauth from 'oauth4webapi';
import { expect } from 'vitest';
import { approvalFields, type Browser, insecure, type OAuthTestApp, REDIRECT, tokenIn } from './support.js';

/** The configured application URL: the issuer oauth4webapi expects in every ID token. */
export const ISSUER = 'http://localhost';

/**
 * oauth4webapi's view of a client, on the test clock: ID tokens carry the server's (frozen) time,
 * and the client checks `iat`, `exp` and `auth_time` against its own.
 */
export function openIdClient(
  t: OAuthTestApp,
  clientId: string,
  extra: Partial<oauth.Client> = {},
): oauth.Client {
  const skew = Math.round((t.clock.now().getTime() - Date.now()) / 1000);
  return { client_id: clientId, [oauth.clockSkew]: skew, ...extra };
}

/** oauth4webapi derives every URL from the issuer; the test server listens elsewhere. */
export function toServer(t: OAuthTestApp) {
  return {
    ...insecure,
    [oauth.customFetch]: (url: string, init: RequestInit) => fetch(url.replace(ISSUER, t.url), init),
  };
}

/** An OpenID authorization request with PKCE, as a client builds it; returns what the client keeps. */
export async function openIdRequest(
  clientId: string,
  params: Record<string, string> = {},
): Promise<{ path: string; verifier: string; state: string; nonce: string }> {
  const verifier = oauth.generateRandomCodeVerifier();
  const state = oauth.generateRandomState();
  const nonce = oauth.generateRandomNonce();
  const query = new URLSearchParams({
    client_id: clientId,
    redirect_uri: REDIRECT,
    response_type: 'code',
    scope: 'openid profile email',
    state,
    nonce,
    code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    ...params,
  });
  return { path: `/oauth/authorize?${query}`, verifier, state, nonce };
}

/** Follows the authorization request as `browser`: approves the page when it is shown; returns the callback URL. */
export async function authorizeInBrowser(browser: Browser, path: string): Promise<URL> {
  let res = await browser.get(path);
  if (res.status === 200) res = await browser.post('/oauth/authorize', approvalFields(await res.text()));
  expect(res.status).toBe(302);
  const location = new URL(res.headers.get('location')!, browser.base);
  expect(location.origin + location.pathname).toBe(REDIRECT);
  return location;
}

/** Validates the callback (state, iss) and exchanges its code with the verifier: the raw token response. */
export async function exchange(
  t: OAuthTestApp,
  client: oauth.Client,
  auth: oauth.ClientAuth,
  callback: URL,
  request: { state: string; verifier: string },
): Promise<Response> {
  const params = oauth.validateAuthResponse(t.as, client, callback, request.state);
  return oauth.authorizationCodeGrantRequest(
    t.as,
    client,
    auth,
    params,
    REDIRECT,
    request.verifier,
    insecure,
  );
}

/**
 * The whole flow for a new public client: the request (PKCE, nonce), the browser's approval and
 * the code exchange. Returns the token endpoint's raw response for the client to process.
 */
export async function publicClientFlow(
  t: OAuthTestApp,
  browser: Browser,
  options: { params?: Record<string, string>; client?: Partial<oauth.Client> } = {},
) {
  const { client: record } = await t.createClient({ confidential: false });
  const client = openIdClient(t, record.id, options.client);
  const request = await openIdRequest(record.id, options.params);
  const callback = await authorizeInBrowser(browser, request.path);
  const response = await exchange(t, client, oauth.None(), callback, request);
  return { clientId: record.id, client, request, response };
}

/**
 * Answers the authorization endpoint's request for a new login (`prompt=login`, `max_age`): the
 * login page from `res`'s redirect, the credentials posted with its `intended` URL, and the
 * authorization request followed again. Returns the authorization endpoint's answer.
 */
export async function logInAgain(
  browser: Browser,
  res: Response,
  user: { email: string; password: string },
  /** Runs between the login and following its redirect. */
  between?: () => void,
): Promise<Response> {
  expect(res.status).toBe(302);
  const login = new URL(res.headers.get('location')!, browser.base);
  expect(login.pathname).toBe('/login');
  const page = await browser.get(login.pathname + login.search);
  expect(page.status).toBe(200);
  const intended = login.searchParams.get('intended')!;
  const posted = await browser.post('/login', { _token: tokenIn(await page.text()), ...user, intended });
  expect(posted.status).toBe(302);
  expect(posted.headers.get('location')).toBe(intended);
  between?.();
  return browser.get(intended);
}

/** OpenID Connect Core §3.1.3.7 checks the client makes that oauth4webapi leaves to us: signature and at_hash. */
export async function verifySignatureAndAtHash(t: OAuthTestApp, idToken: string, accessToken: string) {
  const jwks = (await (await fetch(`${t.url}/oauth/jwks`)).json()) as JSONWebKeySet;
  const { payload, protectedHeader } = await jwtVerify(idToken, createLocalJWKSet(jwks), {
    issuer: ISSUER,
    currentDate: t.clock.now(),
  });
  expect(protectedHeader.typ).toBe('JWT');
  expect(jwks.keys.map((key) => key.kid)).toContain(protectedHeader.kid);
  const hash = protectedHeader.alg === 'EdDSA' ? 'sha512' : 'sha256';
  const digest = createHash(hash).update(accessToken).digest();
  expect(payload.at_hash).toBe(digest.subarray(0, digest.length / 2).toString('base64url'));
  return { payload, protectedHeader };
}
