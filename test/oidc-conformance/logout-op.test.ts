import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createLocalJWKSet, decodeJwt, decodeProtectedHeader, type JSONWebKeySet, jwtVerify } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BackchannelLogout } from '../../src/oauth/logout/backchannel-logout.js';
import { ClientLogout } from '../../src/oauth/logout/client-logout.js';
import { ISSUER } from '../oauth/openid-support.js';
import { Browser, tokenIn } from '../oauth/support.js';
import { ANY_ENGINE } from '../support/engines.js';
import { authorizationResponse, codeFlow, type Plan, planRequest, startPlan } from './support.js';

const POST_LOGOUT = 'http://127.0.0.1:9999/post_logout_redirect';

/** After a logout, a prompt=none request must get login_required (the session is gone). */
async function loggedOut(plan: Plan, browser: Browser) {
  const request = await planRequest(plan, { prompt: 'none' });
  const params = await authorizationResponse(plan, await browser.get(request.path));
  expect(params?.get('error')).toBe('login_required');
}

/** The path of the end_session_endpoint with `params`. */
const endSession = (params: Record<string, string>) => `/oauth/logout?${new URLSearchParams(params)}`;

/** The RP-Initiated Logout OP plan (`oidcc-rp-initiated-logout-certification-test-plan`), one test per module. */
describe(`RP-Initiated Logout OP certification modules`, () => {
  let plan: Plan;

  beforeAll(async () => {
    plan = await startPlan('query', { engine: ANY_ENGINE });
    await plan.t.app.container.make(ClientLogout).save(plan.client.id, {
      postLogoutRedirectUris: [POST_LOGOUT],
      backchannelLogoutUri: null,
      backchannelLogoutSessionRequired: false,
    });
  });
  afterAll(async () => plan.t.stop());

  /** A fresh login and an authorization: the browser and its ID token. */
  async function signedIn() {
    const browser = new Browser(plan.t.url);
    await browser.login({ email: 'ada@example.com', password: 'correct horse battery' });
    const { tokens } = await codeFlow(plan, { browser });
    return { browser, idToken: tokens.id_token! };
  }

  /** The page must be the confirmation (no redirect); confirming logs out. Returns the confirmation's answer. */
  async function confirm(browser: Browser, res: Response) {
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain('Log out?');
    const fields = Object.fromEntries(
      [...html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)"/g)].map((m) => [
        m[1]!,
        m[2]!.replace(/&amp;/g, '&'),
      ]),
    );
    return browser.post('/oauth/logout', { ...fields, _token: tokenIn(html) });
  }

  it('oidcc-rp-initiated-logout-discovery-endpoint-verification', async () => {
    const metadata = await (await fetch(`${plan.t.url}/.well-known/openid-configuration`)).json();
    expect(metadata.end_session_endpoint).toBe(`${ISSUER}/oauth/logout`);
  });

  it('oidcc-rp-initiated-logout', async () => {
    const { browser, idToken } = await signedIn();
    const res = await browser.get(
      endSession({ id_token_hint: idToken, post_logout_redirect_uri: POST_LOGOUT, state: 'xyz' }),
    );
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe(`${POST_LOGOUT}?state=xyz`);
    await loggedOut(plan, browser);
  });

  it('oidcc-rp-initiated-logout-bad-post-logout-redirect-uri', async () => {
    const { browser, idToken } = await signedIn();
    const res = await browser.get(
      endSession({ id_token_hint: idToken, post_logout_redirect_uri: 'https://evil.example/', state: 'x' }),
    );
    expect(res.status).toBe(400);
    expect(res.headers.get('location')).toBeNull();
  });

  it('oidcc-rp-initiated-logout-modified-id-token-hint', async () => {
    const { browser, idToken } = await signedIn();
    const [, payload] = idToken.split('.');
    const none = `${Buffer.from(JSON.stringify({ alg: 'none' })).toString('base64url')}.${payload}.`;
    const res = await browser.get(endSession({ id_token_hint: none, post_logout_redirect_uri: POST_LOGOUT }));
    expect(res.status).toBe(400);
    expect(res.headers.get('location')).toBeNull();
  });

  it('oidcc-rp-initiated-logout-no-id-token-hint', async () => {
    const { browser } = await signedIn();
    const res = await browser.get(
      endSession({ post_logout_redirect_uri: POST_LOGOUT, client_id: plan.client.id, state: 's' }),
    );
    const answer = await confirm(browser, res);
    expect(answer.headers.get('location')).toBe(`${POST_LOGOUT}?state=s`);
    await loggedOut(plan, browser);
    // Without a client to check it against, the URI is refused.
    const alone = await browser.get(endSession({ post_logout_redirect_uri: POST_LOGOUT }));
    expect(alone.status).toBe(400);
  });

  it('oidcc-rp-initiated-logout-no-params', async () => {
    const { browser } = await signedIn();
    const answer = await confirm(browser, await browser.get('/oauth/logout'));
    expect(answer.status).toBe(200);
    expect(await answer.text()).toContain('You are logged out');
    await loggedOut(plan, browser);
  });

  it('oidcc-rp-initiated-logout-no-post-logout-redirect-uri', async () => {
    const { browser, idToken } = await signedIn();
    const res = await browser.get(endSession({ id_token_hint: idToken }));
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('You are logged out');
    await loggedOut(plan, browser);
  });

  it('oidcc-rp-initiated-logout-no-state', async () => {
    const { browser, idToken } = await signedIn();
    const res = await browser.get(
      endSession({ id_token_hint: idToken, post_logout_redirect_uri: POST_LOGOUT }),
    );
    expect(res.headers.get('location')).toBe(POST_LOGOUT);
  });

  it('oidcc-rp-initiated-logout-only-state', async () => {
    const { browser } = await signedIn();
    const answer = await confirm(browser, await browser.get(endSession({ state: 'only' })));
    expect(await answer.text()).toContain('You are logged out');
    await loggedOut(plan, browser);
  });

  it('oidcc-rp-initiated-logout-query-added-to-post-logout-redirect-uri', async () => {
    const { browser, idToken } = await signedIn();
    const res = await browser.get(
      endSession({ id_token_hint: idToken, post_logout_redirect_uri: `${POST_LOGOUT}?foo=bar` }),
    );
    expect(res.status).toBe(400);
    expect(res.headers.get('location')).toBeNull();
  });

  it('oidcc-rp-initiated-logout-bad-id-token-hint', async () => {
    const { browser, idToken } = await signedIn();
    const [header, payload] = idToken.split('.');
    const forged = `${header}.${payload}.${Buffer.alloc(256, 1).toString('base64url')}`;
    const res = await browser.get(
      endSession({ id_token_hint: forged, post_logout_redirect_uri: POST_LOGOUT }),
    );
    expect(res.status).toBe(400);
    expect(res.headers.get('location')).toBeNull();
  });

  it('a logout request POSTed by the client: no CSRF token needed, never taken as confirmed', async () => {
    const { browser, idToken } = await signedIn();
    const res = await browser.post(
      '/oauth/logout',
      { id_token_hint: idToken, post_logout_redirect_uri: POST_LOGOUT },
      { origin: 'http://127.0.0.1:9999' },
    );
    expect(res.headers.get('location')).toBe(POST_LOGOUT);
    const { browser: other } = await signedIn();
    const unvouched = await other.post(
      '/oauth/logout',
      { logout: 'yes' },
      { origin: 'http://127.0.0.1:9999' },
    );
    expect(await unvouched.text()).toContain('Log out?');
  });
});

/** The Back-Channel Logout OP plan (`oidcc-backchannel-rp-initiated-logout-certification-test-plan`). */
describe(`Back-Channel Logout OP certification modules`, () => {
  let plan: Plan;
  const received: string[] = [];
  let failNext = 0;
  const receiver = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => {
      body += chunk;
    });
    req.on('end', () => {
      received.push(new URLSearchParams(body).get('logout_token') ?? '');
      res.statusCode = failNext-- > 0 ? 503 : 200;
      res.end();
    });
  });

  beforeAll(async () => {
    plan = await startPlan('query', { engine: ANY_ENGINE });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    const port = (receiver.address() as AddressInfo).port;
    await plan.t.app.container.make(ClientLogout).save(plan.client.id, {
      postLogoutRedirectUris: [POST_LOGOUT],
      backchannelLogoutUri: `http://127.0.0.1:${port}/backchannel_logout`,
      backchannelLogoutSessionRequired: true,
    });
  });
  afterAll(async () => {
    receiver.close();
    await plan.t.stop();
  });

  it('oidcc-backchannel-logout-discovery-endpoint-verification', async () => {
    const metadata = await (await fetch(`${plan.t.url}/.well-known/openid-configuration`)).json();
    expect(metadata).toMatchObject({
      backchannel_logout_supported: true,
      backchannel_logout_session_supported: true,
    });
  });

  it('oidcc-backchannel-rp-initiated-logout', async () => {
    const browser = new Browser(plan.t.url);
    await browser.login({ email: 'ada@example.com', password: 'correct horse battery' });
    const { claims, tokens } = await codeFlow(plan, { browser });
    // A second authorization in the same session: still one logout token for this client.
    await codeFlow(plan, { browser });
    expect(claims.sid).toMatch(/^[A-Za-z0-9_-]{32}$/);
    // The first delivery fails: the token is sent again.
    failNext = 1;
    const res = await browser.get(
      endSession({ id_token_hint: tokens.id_token!, post_logout_redirect_uri: POST_LOGOUT, state: 'b' }),
    );
    expect(res.headers.get('location')).toBe(`${POST_LOGOUT}?state=b`);
    await plan.t.app.container.make(BackchannelLogout).settled();
    expect(received).toHaveLength(2);
    expect(received[1]).toBe(received[0]);
    const jwks = (await (await fetch(`${plan.t.url}/oauth/jwks`)).json()) as JSONWebKeySet;
    const { payload } = await jwtVerify(received[0]!, createLocalJWKSet(jwks), {
      issuer: ISSUER,
      audience: plan.client.id,
      currentDate: plan.t.clock.now(),
      typ: 'logout+jwt',
    });
    expect(decodeProtectedHeader(received[0]!).typ).toBe('logout+jwt');
    expect(payload).toMatchObject({
      sub: claims.sub,
      sid: claims.sid,
      events: { 'http://schemas.openid.net/event/backchannel-logout': {} },
    });
    expect(payload.jti).toBeTruthy();
    expect(payload).not.toHaveProperty('nonce');
    await loggedOut(plan, browser);
    // The session is over: nothing more is sent for it.
    await browser.get(endSession({ id_token_hint: tokens.id_token! }));
    await plan.t.app.container.make(BackchannelLogout).settled();
    expect(received).toHaveLength(2);
  });

  it("the site's own logout form (POST /logout) ends the session for its clients too", async () => {
    const browser = new Browser(plan.t.url);
    await browser.login({ email: 'ada@example.com', password: 'correct horse battery' });
    const { claims } = await codeFlow(plan, { browser });
    const before = received.length;
    const res = await browser.post('/logout', { _token: await browser.csrfToken() });
    expect(res.status).toBe(302);
    await plan.t.app.container.make(BackchannelLogout).settled();
    expect(received).toHaveLength(before + 1);
    const { payload } = await jwtVerify(received.at(-1)!, createLocalJWKSet(await jwksOf(plan)), {
      issuer: ISSUER,
      audience: plan.client.id,
      currentDate: plan.t.clock.now(),
    });
    expect(payload).toMatchObject({ sub: claims.sub, sid: claims.sid });
  });

  it('§2.8: a delivery still failing at a stop is stored, and the next start sends it', async () => {
    const browser = new Browser(plan.t.url);
    await browser.login({ email: 'ada@example.com', password: 'correct horse battery' });
    const { tokens, claims } = await codeFlow(plan, { browser });
    const before = received.length;
    failNext = 1_000;
    await browser.get(endSession({ id_token_hint: tokens.id_token! }));
    const stored = () => plan.t.app.db.selectFrom('oauth_backchannel_deliveries').selectAll().execute();
    while (received.length === before) await new Promise((resolve) => setTimeout(resolve, 20));
    // The application stops while the delivery waits for its retry.
    const running = plan.t.app.container.make(BackchannelLogout);
    running.close();
    await running.settled();
    expect(await stored()).toMatchObject([{ client_id: plan.client.id, attempts: 1 }]);
    // The next start (a new instance of the service on the same database) resumes it.
    failNext = 0;
    const restarted = plan.t.app.container.construct(BackchannelLogout);
    restarted.resume();
    await restarted.settled();
    expect(received).toHaveLength(before + 2);
    expect(decodeJwt(received.at(-1)!)).toMatchObject({ sid: claims.sid, aud: plan.client.id });
    expect(await stored()).toEqual([]);
  });
});

async function jwksOf(plan: Plan): Promise<JSONWebKeySet> {
  return (await (await fetch(`${plan.t.url}/oauth/jwks`)).json()) as JSONWebKeySet;
}
