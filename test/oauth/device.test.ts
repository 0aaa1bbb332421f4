import * as oauth from 'oauth4webapi';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AccessTokenCreated, RefreshTokenCreated } from '../../src/oauth/events.js';
import { AccessTokenVerifier } from '../../src/oauth/jwt/access-token-verifier.js';
import { DEVICE_CODE_GRANT } from '../../src/oauth/records.js';
import { OAuthStoreKey } from '../../src/oauth/stores/contracts.js';
import { ENGINES } from '../support/engines.js';
import {
  ADA,
  approvalFields,
  BOB,
  Browser,
  basic,
  insecure,
  type OAuthTestApp,
  oauthApp,
  tokenIn,
} from './support.js';

/** The device authorization grant (RFC 8628) over HTTP, the device played by oauth4webapi. */
describe.each(ENGINES)('device authorization grant (%s)', (engine) => {
  let t: OAuthTestApp;
  let as: oauth.AuthorizationServer;
  let device: oauth.Client;
  let ada: Browser;

  beforeAll(async () => {
    t = await oauthApp({ engine });
    as = { ...t.as, device_authorization_endpoint: `${t.url}/oauth/device/code` };
    const { client } = await t.createClient({
      name: 'Order CLI',
      redirect: '',
      confidential: false,
      grantTypes: [DEVICE_CODE_GRANT, 'refresh_token'],
    });
    device = { client_id: client.id };
    ada = new Browser(t.url);
    await ada.login(ADA);
  });
  afterAll(async () => t.stop());

  /** §3.1–3.2 as the device does it. */
  async function start(scope = 'check-status'): Promise<oauth.DeviceAuthorizationResponse> {
    const response = await oauth.deviceAuthorizationRequest(as, device, oauth.None(), { scope }, insecure);
    return oauth.processDeviceAuthorizationResponse(as, device, response);
  }

  /** One §3.4 poll: the tokens, or the error code of §3.5. */
  async function poll(deviceCode: string): Promise<oauth.TokenEndpointResponse | string> {
    const response = await oauth.deviceCodeGrantRequest(as, device, oauth.None(), deviceCode, insecure);
    try {
      return await oauth.processDeviceCodeResponse(as, device, response);
    } catch (err) {
      if (err instanceof oauth.ResponseBodyError) return err.error;
      throw err;
    }
  }

  /** Types `code` on the verification page as `browser`; returns the page it answers with. */
  async function enter(browser: Browser, code: string): Promise<Response> {
    const page = await browser.get('/oauth/device');
    return browser.post('/oauth/device', { _token: tokenIn(await page.text()), user_code: code });
  }

  /** Enters the code and presses Approve (or Deny); returns the final page's text. */
  async function answer(browser: Browser, code: string, decision: 'approve' | 'deny'): Promise<string> {
    const confirmation = await enter(browser, code);
    expect(confirmation.status).toBe(200);
    const fields = approvalFields(await confirmation.text(), '/oauth/device/authorize');
    const res = await browser.post('/oauth/device/authorize', {
      ...fields,
      ...(decision === 'deny' ? { _method: 'DELETE' } : {}),
    });
    expect(res.status).toBe(200);
    return res.text();
  }

  it('RFC 8628 §4: discovery names the device authorization endpoint and the grant type', async () => {
    const res = await fetch(`${t.url}/.well-known/oauth-authorization-server`);
    const metadata = (await res.json()) as Record<string, unknown>;
    expect(metadata.device_authorization_endpoint).toBe('http://localhost/oauth/device/code');
    expect(metadata.grant_types_supported).toContain(DEVICE_CODE_GRANT);
  });

  it('RFC 8628 §3.1–3.5: code, pending while the user has not answered, approve on the page, tokens', async () => {
    const started = await start('check-status place-orders');
    expect(started.user_code).toMatch(/^[BCDFGHJKLMNPQRSTVWXZ]{4}-[BCDFGHJKLMNPQRSTVWXZ]{4}$/);
    expect(started.verification_uri).toBe('http://localhost/oauth/device');
    expect(started.verification_uri_complete).toBe(
      `http://localhost/oauth/device?user_code=${started.user_code}`,
    );
    expect(started.expires_in).toBe(600);
    expect(started.interval).toBe(5);
    expect(await poll(started.device_code)).toBe('authorization_pending');

    // verification_uri_complete pre-fills the code; it is matched without case or dash.
    const prefilled = await ada.get(`/oauth/device?user_code=${started.user_code}`);
    expect(prefilled.headers.get('x-frame-options')).toBe('DENY');
    expect(await prefilled.text()).toContain(`value="${started.user_code}"`);
    const confirmation = await enter(ada, started.user_code.replace('-', '').toLowerCase());
    const html = await confirmation.text();
    expect(html).toContain('Order CLI');
    expect(html).toContain(started.user_code);
    expect(html).toContain('data-scope="place-orders"');
    const done = await ada.post('/oauth/device/authorize', approvalFields(html, '/oauth/device/authorize'));
    expect(await done.text()).toContain('Device connected');

    const created: AccessTokenCreated[] = [];
    const refreshes: RefreshTokenCreated[] = [];
    t.app.events.listen(AccessTokenCreated, (event) => void created.push(event));
    t.app.events.listen(RefreshTokenCreated, (event) => void refreshes.push(event));
    t.clock.advance(5_000);
    const tokens = await poll(started.device_code);
    if (typeof tokens === 'string') throw new Error(tokens);
    // The events of every grant, once.
    expect(created).toEqual([expect.objectContaining({ userId: t.ada.id, clientId: device.client_id })]);
    expect(refreshes).toHaveLength(1);
    expect(tokens.refresh_token).toBeTypeOf('string');
    expect(tokens.scope).toBe('check-status place-orders');
    const claims = await t.app.container.make(AccessTokenVerifier).verify(tokens.access_token);
    expect(claims).toMatchObject({ sub: String(t.ada.id), client_id: device.client_id });

    // The refresh token works for a client whose grant types name refresh_token.
    const refreshed = await oauth.refreshTokenGrantRequest(
      as,
      device,
      oauth.None(),
      tokens.refresh_token!,
      insecure,
    );
    expect((await oauth.processRefreshTokenResponse(as, device, refreshed)).access_token).toBeTypeOf(
      'string',
    );
  });

  it('RFC 8628 §3.5: slow_down for a poll within the interval, which then grows by 5 seconds', async () => {
    const started = await start();
    expect(await poll(started.device_code)).toBe('authorization_pending');
    expect(await poll(started.device_code)).toBe('slow_down'); // interval now 10 s
    t.clock.advance(5_000);
    expect(await poll(started.device_code)).toBe('slow_down'); // 5 s < 10 s; interval now 15 s
    t.clock.advance(15_000);
    expect(await poll(started.device_code)).toBe('authorization_pending');
    t.clock.advance(10_000);
    expect(await poll(started.device_code)).toBe('slow_down');
  });

  it('RFC 8628 §3.5: expired_token once the code outlives expires_in; the page refuses its user code', async () => {
    const started = await start();
    t.clock.advance(601_000);
    expect(await poll(started.device_code)).toBe('expired_token');
    const res = await enter(ada, started.user_code);
    expect(res.status).toBe(422);
    expect(await res.text()).toContain('not valid or has expired');
  });

  it('RFC 8628 §3.5: access_denied when the user denies on the page', async () => {
    const started = await start();
    expect(await answer(ada, started.user_code, 'deny')).toContain('Access denied');
    t.clock.advance(5_000);
    expect(await poll(started.device_code)).toBe('access_denied');
    const res = await oauth.deviceCodeGrantRequest(as, device, oauth.None(), started.device_code, insecure);
    expect(res.status).toBe(400);
  });

  it('a device code is redeemed once: of parallel polls after approval exactly one gets tokens', async () => {
    const started = await start();
    await answer(ada, started.user_code, 'approve');
    t.clock.advance(5_000);
    const results = await Promise.all(Array.from({ length: 6 }, () => poll(started.device_code)));
    const issued = results.filter((r): r is oauth.TokenEndpointResponse => typeof r !== 'string');
    expect(issued).toHaveLength(1);
    expect(results.filter((r) => r === 'invalid_grant')).toHaveLength(5);
    expect(await poll(started.device_code)).toBe('invalid_grant');
    // The losers revoke nothing: the winner's token stays good.
    const claims = await t.app.container.make(AccessTokenVerifier).verify(issued[0]!.access_token);
    const stored = await t.app.container.make(OAuthStoreKey).accessTokens.find(claims.jti!);
    expect(stored?.revoked).toBe(false);
  });

  it('Approve and Deny sent at once from the same page: one decision counts', async () => {
    const started = await start();
    const confirmation = await enter(ada, started.user_code);
    const fields = approvalFields(await confirmation.text(), '/oauth/device/authorize');
    const pages = await Promise.all([
      ada.post('/oauth/device/authorize', fields).then((r) => r.text()),
      ada.post('/oauth/device/authorize', { ...fields, _method: 'DELETE' }).then((r) => r.text()),
    ]);
    const answered = pages.filter((p) => p.includes('Device connected') || p.includes('Access denied'));
    expect(answered).toHaveLength(1);
    t.clock.advance(5_000);
    const outcome = await poll(started.device_code);
    expect(answered[0]!.includes('Device connected') ? typeof outcome : outcome).toBe(
      answered[0]!.includes('Device connected') ? 'object' : 'access_denied',
    );
  });

  it('RFC 8628 §5.1: wrong user codes are limited per user, with a clear message; right ones do not count', async () => {
    const bob = new Browser(t.url);
    await bob.login(BOB);
    const started = await start();
    for (let i = 0; i < 4; i++) expect((await enter(bob, 'BBBB-BBBB')).status).toBe(422);
    // A right code gives its attempt back.
    const right = await enter(bob, started.user_code);
    expect(right.status).toBe(200);
    expect((await enter(bob, 'not a code')).status).toBe(422);
    const refused = await enter(bob, 'CCCC-CCCC');
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(await refused.text()).toMatch(/Too many wrong codes\. Please try again in \d+ seconds\./);
    // While blocked, even the right code is not looked up.
    expect((await enter(bob, started.user_code)).status).toBe(429);
    // Ada, from the same address, is not blocked by Bob's guesses.
    expect((await enter(ada, started.user_code)).status).toBe(200);
  });

  it('the verification page needs a login and keeps the code through it', async () => {
    const anonymous = new Browser(t.url);
    const res = await anonymous.get('/oauth/device?user_code=WDJB-MJHT');
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe(
      `/login?intended=${encodeURIComponent('/oauth/device?user_code=WDJB-MJHT')}`,
    );
  });

  it('RFC 8628 §3.1: the device endpoint refuses clients without the grant, bad scopes, bad secrets', async () => {
    const post = (fields: Record<string, string>, headers: Record<string, string> = {}) =>
      fetch(`${t.url}/oauth/device/code`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
        body: new URLSearchParams(fields),
      }).then(async (r) => ({ status: r.status, body: (await r.json()) as { error: string } }));

    const { client: plain } = await t.createClient({ confidential: false });
    expect(await post({ client_id: plain.id })).toMatchObject({
      status: 400,
      body: { error: 'unauthorized_client' },
    });
    expect(await post({ client_id: device.client_id, scope: 'nope' })).toMatchObject({
      status: 400,
      body: { error: 'invalid_scope' },
    });
    expect(await post({ client_id: device.client_id, scope: '*' })).toMatchObject({
      body: { error: 'invalid_scope' },
    });
    const { client: confidential, plainSecret } = await t.createClient({ grantTypes: [DEVICE_CODE_GRANT] });
    expect(
      await post({ scope: 'check-status' }, { authorization: basic(confidential.id, plainSecret!) }),
    ).toMatchObject({
      status: 200,
    });
    expect(await post({ client_id: confidential.id, client_secret: 'wrong' })).toMatchObject({
      status: 401,
      body: { error: 'invalid_client' },
    });
    expect(await post({ client_id: 'unknown' })).toMatchObject({ status: 401 });
  });

  it('tollgate purge deletes expired device codes (never revoked ones: they answer their device until then)', async () => {
    const store = t.app.container.make(OAuthStoreKey);
    const now = () => t.clock.now().toISOString();
    expect((await store.purge({ revoked: true, expired: false, before: now() })).deviceCodes).toBe(0);
    t.clock.advance(601_000);
    const fresh = await start();
    const counts = await store.purge({ revoked: false, expired: true, before: now() });
    expect(counts.deviceCodes).toBeGreaterThan(0);
    const left = await t.app.db.selectFrom('oauth_device_codes').select('id').execute();
    expect(left).toHaveLength(1);
    expect((await enter(ada, fresh.user_code)).status).toBe(200);
  });

  it('RFC 8628 §3.4: a device code is good only for the client it was issued to', async () => {
    const started = await start();
    const { client: other } = await t.createClient({
      confidential: false,
      redirect: '',
      grantTypes: [DEVICE_CODE_GRANT],
    });
    const res = await oauth.deviceCodeGrantRequest(
      as,
      { client_id: other.id },
      oauth.None(),
      started.device_code,
      insecure,
    );
    expect(((await res.json()) as { error: string }).error).toBe('invalid_grant');
    expect(await poll('not-a-device-code')).toBe('invalid_grant');
  });
});
