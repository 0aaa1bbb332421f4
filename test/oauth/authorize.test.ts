import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINES } from '../support/engines.js';
import {
  ADA,
  approvalFields,
  authorizePath,
  BOB,
  Browser,
  type OAuthTestApp,
  oauthApp,
  REDIRECT,
  tokenIn,
} from './support.js';

const CHALLENGE = createHash('sha256').update('x'.repeat(64)).digest('base64url');

/** GET /oauth/authorize and the approve/deny decision (RFC 6749 §4.1.1–§4.1.2.1, RFC 9700). */
describe.each(ENGINES)('authorization endpoint (%s)', (engine) => {
  let t: OAuthTestApp;
  let clientId: string;
  let publicId: string;
  let browser: Browser;

  beforeAll(async () => {
    t = await oauthApp({
      engine,
      config: { oauth: { scopes: { 'check-status': 'Check the status of your <orders>' } } },
    });
    clientId = (await t.createClient({ name: 'Order Tracker' })).client.id;
    publicId = (await t.createClient({ confidential: false })).client.id;
    browser = new Browser(t.url);
    await browser.login(ADA);
  });
  afterAll(async () => t.stop());

  const authorizeUrl = (params: Record<string, string>) => authorizePath(clientId, params);

  const redirectParams = (res: Response) => {
    expect(res.status).toBe(302);
    const location = new URL(res.headers.get('location')!);
    expect(`${location.origin}${location.pathname}`).toBe(REDIRECT);
    return location.searchParams;
  };

  it('sends a logged-out user to login and back', async () => {
    const visitor = new Browser(t.url);
    const res = await visitor.get(authorizeUrl({}));
    expect(res.status).toBe(302);
    const location = new URL(res.headers.get('location')!, t.url);
    expect(location.pathname).toBe('/login');
    expect(location.searchParams.get('intended')).toContain('/oauth/authorize?');
    const page = await visitor.get(location.pathname + location.search);
    const html = await page.text();
    const intended = /name="intended" value="([^"]+)"/.exec(html)![1]!.replace(/&amp;/g, '&');
    const login = await visitor.post('/login', {
      _token: tokenIn(html),
      email: ADA.email,
      password: ADA.password,
      intended,
    });
    expect(login.headers.get('location')).toBe(authorizeUrl({}));
    const back = await visitor.get(login.headers.get('location')!);
    expect(back.status).toBe(200);
    expect(await back.text()).toContain('Order Tracker');
  });

  it('shows the client name and each scope description; the page is not framable', async () => {
    const res = await browser.get(authorizeUrl({}));
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain('Order Tracker');
    expect(html).toContain('Check the status of your &lt;orders&gt;');
    expect(html).toMatch(/>\s*Approve\s*</);
    expect(html).toMatch(/>\s*Deny\s*</);
    expect(res.headers.get('x-frame-options')).toBe('DENY');
    expect(res.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(approvalFields(html)).toMatchObject({ state: 'xyz', client_id: clientId });
  });

  it('approve → redirect with code and state', async () => {
    const page = await browser.get(authorizeUrl({}));
    const params = redirectParams(await browser.post('/oauth/authorize', approvalFields(await page.text())));
    expect(params.get('code')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(params.get('state')).toBe('xyz');
  });

  it('deny → redirect with error=access_denied and state', async () => {
    const page = await browser.get(authorizeUrl({}));
    const fields = approvalFields(await page.text());
    const params = redirectParams(await browser.post('/oauth/authorize', { ...fields, _method: 'DELETE' }));
    expect(params.get('error')).toBe('access_denied');
    expect(params.get('state')).toBe('xyz');
    expect(params.get('code')).toBeNull();
  });

  it('security: approval without the CSRF token is refused', async () => {
    const page = await browser.get(authorizeUrl({}));
    const { _token, ...fields } = approvalFields(await page.text());
    const res = await browser.post('/oauth/authorize', fields);
    expect(res.status).toBe(419);
    expect(res.headers.get('location')).toBeNull();
    const wrong = await browser.post('/oauth/authorize', { ...fields, _token: 'forged' });
    expect(wrong.status).toBe(419);
  });

  it('the decision is bound to the pending request: wrong auth_token or a second answer is refused', async () => {
    const page = await browser.get(authorizeUrl({}));
    const fields = approvalFields(await page.text());
    const forged = await browser.post('/oauth/authorize', { ...fields, auth_token: 'guess' });
    expect(forged.status).toBe(400);
    expect(forged.headers.get('location')).toBeNull();
    // The forged attempt did not consume it; the real one works once.
    expect((await browser.post('/oauth/authorize', fields)).status).toBe(302);
    expect((await browser.post('/oauth/authorize', fields)).status).toBe(400);
  });

  it("another user's session cannot answer Ada's request", async () => {
    const page = await browser.get(authorizeUrl({}));
    const fields = approvalFields(await page.text());
    const bob = new Browser(t.url);
    await bob.login(BOB);
    const res = await bob.post('/oauth/authorize', { ...fields, _token: await bob.csrfToken() });
    expect(res.status).toBe(400);
  });

  it('security: a redirect_uri that does not equal the registered one is shown, never redirected to', async () => {
    for (const redirect of [
      'http://evil.example/callback',
      `${REDIRECT}/extra`,
      `${REDIRECT}?x=1`,
      REDIRECT.replace('127.0.0.1', 'localhost'),
    ]) {
      const res = await browser.get(authorizeUrl({ redirect_uri: redirect, response_type: 'nonsense' }));
      expect(res.status).toBe(400);
      expect(res.headers.get('location')).toBeNull();
      expect(await res.text()).toContain('redirect_uri');
    }
  });

  it('an unknown client is shown as an error page, never redirected', async () => {
    const res = await browser.get(authorizeUrl({ client_id: 'unknown' }));
    expect(res.status).toBe(400);
    expect(res.headers.get('location')).toBeNull();
    expect(await res.text()).toContain('not registered');
    const missing = await browser.get(`/oauth/authorize?redirect_uri=${encodeURIComponent(REDIRECT)}`);
    expect(missing.status).toBe(400);
  });

  it('unsupported_response_type (token while the implicit grant is disabled) goes back to the client', async () => {
    const params = redirectParams(await browser.get(authorizeUrl({ response_type: 'token' })));
    expect(params.get('error')).toBe('unsupported_response_type');
    expect(params.get('state')).toBe('xyz');
  });

  it('invalid_scope for an unknown scope and for `*`', async () => {
    for (const scope of ['launch-missiles', '*']) {
      const params = redirectParams(await browser.get(authorizeUrl({ scope })));
      expect(params.get('error')).toBe('invalid_scope');
    }
  });

  it('RFC 7636 / RFC 9700 §2.1.1: a public client must send a S256 code_challenge', async () => {
    const params = redirectParams(await browser.get(authorizeUrl({ client_id: publicId })));
    expect(params.get('error')).toBe('invalid_request');
    const plain = redirectParams(
      await browser.get(
        authorizeUrl({ client_id: publicId, code_challenge: CHALLENGE, code_challenge_method: 'plain' }),
      ),
    );
    expect(plain.get('error')).toBe('invalid_request');
    const ok = await browser.get(
      authorizeUrl({ client_id: publicId, code_challenge: CHALLENGE, code_challenge_method: 'S256' }),
    );
    expect(ok.status).toBe(200);
  });

  it('a first-party (password grant) client may not use the authorization endpoint', async () => {
    const { client } = await t.createClient({ password: true });
    const params = redirectParams(await browser.get(authorizeUrl({ client_id: client.id })));
    expect(params.get('error')).toBe('unauthorized_client');
  });
});

describe.each(ENGINES)('implicit grant and a replaced approval page (%s)', (engine) => {
  let t: OAuthTestApp;

  beforeAll(async () => {
    t = await oauthApp({
      engine,
      config: { oauth: { implicitGrant: true } },
      oauth: {
        approvalView: (_c, props) =>
          `<p>Custom page for ${props.client.name}</p><form method="post" action="/oauth/authorize"><input type="hidden" name="_token" value="${props.csrfToken}"><input type="hidden" name="auth_token" value="${props.authToken}"></form>`,
      },
    });
  });
  afterAll(async () => t.stop());

  it('RFC 6749 §4.2.2: response_type=token returns the token in the fragment, no refresh token', async () => {
    const { client } = await t.createClient({ name: 'SPA' });
    const browser = new Browser(t.url);
    await browser.login(ADA);
    const page = await browser.get(
      `/oauth/authorize?${new URLSearchParams({
        client_id: client.id,
        redirect_uri: REDIRECT,
        response_type: 'token',
        scope: 'check-status',
        state: 's1',
      })}`,
    );
    const html = await page.text();
    expect(html).toContain('Custom page for SPA');
    expect(page.headers.get('x-frame-options')).toBe('DENY');
    const res = await browser.post('/oauth/authorize', approvalFields(html));
    const location = new URL(res.headers.get('location')!);
    expect(location.search).toBe('');
    const fragment = new URLSearchParams(location.hash.slice(1));
    expect(fragment.get('token_type')).toBe('Bearer');
    expect(fragment.get('access_token')?.split('.')).toHaveLength(3);
    expect(fragment.get('state')).toBe('s1');
    expect(fragment.get('refresh_token')).toBeNull();
  });
});
