import * as oauth from 'oauth4webapi';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ANY_ENGINE } from '../support/engines.js';
import { authorizeInBrowser, exchange, logInAgain, openIdClient, openIdRequest } from './openid-support.js';
import { ADA, approvalFields, BOB, Browser, type OAuthTestApp, oauthApp, REDIRECT } from './support.js';

/** The error oauth4webapi reads from an authorization response. */
function authorizationError(t: OAuthTestApp, clientId: string, res: Response, state: string): string {
  expect(res.status).toBe(302);
  const location = new URL(res.headers.get('location')!);
  expect(location.origin + location.pathname).toBe(REDIRECT);
  try {
    oauth.validateAuthResponse(t.as, { client_id: clientId }, location, state);
  } catch (err) {
    expect(err).toBeInstanceOf(oauth.AuthorizationResponseError);
    return (err as oauth.AuthorizationResponseError).error;
  }
  throw new Error(`no error in ${location}`);
}

/** OpenID Connect Core §3.1.2.1 `prompt` and `max_age`, and §3.1.2.6 errors, through real HTTP. */
describe(`OpenID Connect: prompt and max_age`, () => {
  let t: OAuthTestApp;
  let clientId: string;

  beforeAll(async () => {
    t = await oauthApp({ engine: ANY_ENGINE });
    clientId = (await t.createClient({ confidential: false })).client.id;
  });
  afterAll(async () => t.stop());

  const now = () => Math.floor(t.clock.now().getTime() / 1000);

  /** Exchanges the callback's code and validates the ID token (nonce, and auth_time against `maxAge`). */
  async function idTokenFrom(
    callback: URL,
    request: { state: string; verifier: string; nonce: string },
    maxAge?: number,
  ) {
    const client = openIdClient(t, clientId);
    const response = await exchange(t, client, oauth.None(), callback, request);
    const tokens = await oauth.processAuthorizationCodeResponse(t.as, client, response, {
      expectedNonce: request.nonce,
      ...(maxAge === undefined ? {} : { maxAge }),
    });
    return oauth.getValidatedIdTokenClaims(tokens)!;
  }

  async function loggedIn(user = ADA): Promise<{ browser: Browser; at: number }> {
    const browser = new Browser(t.url);
    const at = now();
    await browser.login(user);
    return { browser, at };
  }

  it('§3.1.2.6: prompt=none without a session is login_required at the redirect URI, with state and iss', async () => {
    const visitor = new Browser(t.url);
    const request = await openIdRequest(clientId, { prompt: 'none' });
    const res = await visitor.get(request.path);
    expect(authorizationError(t, clientId, res, request.state)).toBe('login_required');
    // An unknown client is still a page for the user, never a redirect.
    const unknown = await visitor.get(request.path.replace(clientId, 'no-such-client'));
    expect(unknown.status).toBe(400);
    expect(unknown.headers.get('location')).toBeNull();
  });

  it('§3.1.2.1: prompt=none with other values is invalid_request', async () => {
    const { browser } = await loggedIn();
    const request = await openIdRequest(clientId, { prompt: 'none consent' });
    expect(authorizationError(t, clientId, await browser.get(request.path), request.state)).toBe(
      'invalid_request',
    );
  });

  it('§3.1.2.6: prompt=none when the approval page would be shown is consent_required; once approved, a silent code', async () => {
    const { browser: bob, at } = await loggedIn(BOB);
    const silent = await openIdRequest(clientId, { prompt: 'none' });
    expect(authorizationError(t, clientId, await bob.get(silent.path), silent.state)).toBe(
      'consent_required',
    );
    // Bob approves once; the same request with prompt=none then needs no page.
    const first = await openIdRequest(clientId);
    await idTokenFrom(await authorizeInBrowser(bob, first.path), first);
    const again = await openIdRequest(clientId, { prompt: 'none' });
    const res = await bob.get(again.path);
    expect(res.status).toBe(302);
    const claims = await idTokenFrom(new URL(res.headers.get('location')!), again);
    expect(claims).toMatchObject({ sub: String(t.bob.id), auth_time: at, nonce: again.nonce });
  });

  it('prompt=login: the user logs in again before the code is issued; auth_time is the new login', async () => {
    const { browser: ada, at: firstLogin } = await loggedIn();
    t.clock.advance(60_000);
    const request = await openIdRequest(clientId, { prompt: 'login' });
    const asked = await ada.get(request.path);
    // Coming back without logging in does not get past it.
    const retried = await ada.get(request.path);
    expect(new URL(retried.headers.get('location')!, t.url).pathname).toBe('/login');
    t.clock.advance(60_000);
    const secondLogin = now();
    const page = await logInAgain(ada, asked, ADA);
    expect(page.status).toBe(200);
    // The approval page came after the new login; its code carries the new auth_time.
    const decision = await ada.post('/oauth/authorize', approvalFields(await page.text()));
    const claims = await idTokenFrom(new URL(decision.headers.get('location')!), request);
    expect(claims.auth_time).toBe(secondLogin);
    expect(claims.auth_time).not.toBe(firstLogin);
  });

  it('prompt=none with a login older than max_age: login_required, no login page', async () => {
    const { browser: ada } = await loggedIn();
    const request = await openIdRequest(clientId, { prompt: 'none', max_age: '0' });
    t.clock.advance(1000);
    expect(authorizationError(t, clientId, await ada.get(request.path), request.state)).toBe(
      'login_required',
    );
  });

  it('max_age: a login older than max_age sends the user to log in again; auth_time satisfies the client', async () => {
    const { browser: ada, at: oldLogin } = await loggedIn();
    t.clock.advance(600_000);
    // Ten minutes after the login, max_age=3600 is satisfied as is: auth_time is the old login.
    const recent = await openIdRequest(clientId, { max_age: '3600' });
    const lenient = await idTokenFrom(await authorizeInBrowser(ada, recent.path), recent, 3600);
    expect(lenient.auth_time).toBe(oldLogin);
    // max_age=300 is not: a login first.
    const strict = await openIdRequest(clientId, { max_age: '300' });
    const asked = await ada.get(strict.path);
    const newLogin = now();
    const answered = await logInAgain(ada, asked, ADA);
    // The scopes were approved above: straight back to the client with a code.
    expect(answered.status).toBe(302);
    const claims = await idTokenFrom(new URL(answered.headers.get('location')!), strict, 300);
    expect(claims.auth_time).toBe(newLogin);
  });

  it('max_age=0 (as prompt=login): one new login, then the code — no loop', async () => {
    const { browser: ada } = await loggedIn();
    t.clock.advance(5_000);
    const request = await openIdRequest(clientId, { max_age: '0' });
    const asked = await ada.get(request.path);
    const newLogin = now();
    // A second passes between the login and the return: the login still answers the request.
    const answered = await logInAgain(ada, asked, ADA, () => t.clock.advance(1_000));
    expect(answered.status).toBe(302);
    const claims = await idTokenFrom(new URL(answered.headers.get('location')!), request);
    expect(claims.auth_time).toBe(newLogin);
  });

  it('a client that sent max_age refuses an auth_time older than it (oauth4webapi)', async () => {
    const { browser: ada } = await loggedIn();
    const request = await openIdRequest(clientId);
    const callback = await authorizeInBrowser(ada, request.path);
    t.clock.advance(120_000);
    const client = openIdClient(t, clientId);
    const response = await exchange(t, client, oauth.None(), callback, request);
    await expect(
      oauth.processAuthorizationCodeResponse(t.as, client, response, {
        expectedNonce: request.nonce,
        maxAge: 60,
      }),
    ).rejects.toThrow(/too much time has elapsed/);
  });

  it('malformed max_age and nonce are invalid_request', async () => {
    const { browser: ada } = await loggedIn();
    const malformed: Record<string, string>[] = [
      { max_age: 'soon' },
      { max_age: '-1' },
      { nonce: 'x'.repeat(513) },
      { nonce: 'a\tb' },
    ];
    for (const params of malformed) {
      const request = await openIdRequest(clientId, params);
      expect(
        authorizationError(t, clientId, await ada.get(request.path), request.state),
        JSON.stringify(params),
      ).toBe('invalid_request');
    }
  });

  it('the login page stays closed to a signed-in user who was not asked to log in again', async () => {
    const { browser: ada } = await loggedIn();
    const res = await ada.get('/login');
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe('/dashboard');
  });
});
