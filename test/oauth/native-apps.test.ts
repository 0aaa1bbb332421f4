import * as oauth from 'oauth4webapi';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listenForCallback } from '../../examples/client-app/client.js';
import { ANY_ENGINE } from '../support/engines.js';
import { ADA, approvalFields, Browser, insecure, type OAuthTestApp, oauthApp } from './support.js';

/** Native apps (RFC 8252) as public clients, driven by oauth4webapi over real sockets. */
describe(`native apps: loopback and private-use redirects`, () => {
  let t: OAuthTestApp;
  let ada: Browser;
  let csrf: string;

  beforeAll(async () => {
    t = await oauthApp({ engine: ANY_ENGINE });
    ada = new Browser(t.url);
    await ada.login(ADA);
    csrf = await ada.csrfToken();
  });
  afterAll(async () => t.stop());

  /** Registers a client through the JSON API, as the dashboard does. */
  const register = async (redirect: string, confidential = false) => {
    const res = await ada.json('POST', '/oauth/clients', { name: 'Native', redirect, confidential }, csrf);
    return { status: res.status, body: (await res.json()) as Record<string, any> };
  };

  /** The authorization request oauth4webapi builds; Ada approves; the Location the server answers. */
  const authorize = async (clientId: string, redirectUri: string, challenge: string) => {
    const url = new URL(`${t.url}/oauth/authorize`);
    url.search = new URLSearchParams({
      client_id: clientId,
      redirect_uri: redirectUri,
      response_type: 'code',
      scope: 'check-status',
      state: 'st-1',
      code_challenge: challenge,
      code_challenge_method: 'S256',
    }).toString();
    const page = await ada.get(url.pathname + url.search);
    if (page.status !== 200) return { page, location: '' };
    const approved = await ada.post('/oauth/authorize', approvalFields(await page.text()));
    expect(approved.status).toBe(302);
    return { page, location: approved.headers.get('location') ?? '' };
  };

  /** RFC 6749 §4.1.2.1: an untrusted redirect_uri is an error page for the user, never a redirect. */
  const expectShownNotRedirected = async (clientId: string, challenge: string, redirects: string[]) => {
    for (const redirect of redirects) {
      const { page } = await authorize(clientId, redirect, challenge);
      expect(page.status, redirect).toBe(400);
      expect(page.headers.get('location'), redirect).toBeNull();
      expect(await page.text()).toContain('redirect_uri');
    }
  };

  const exchange = async (
    clientId: string,
    params: URLSearchParams,
    redirectUri: string,
    verifier: string,
  ) => {
    const client: oauth.Client = { client_id: clientId, token_endpoint_auth_method: 'none' };
    const res = await oauth.authorizationCodeGrantRequest(
      t.as,
      client,
      oauth.None(),
      params,
      redirectUri,
      verifier,
      insecure,
    );
    return oauth.processAuthorizationCodeResponse(t.as, client, res);
  };

  it('RFC 8252 §7.3: a loopback redirect registered without a port matches the port chosen at run time, with PKCE', async () => {
    const { body: client } = await register('http://127.0.0.1/callback');
    expect(client.confidential).toBe(false);
    const app = await listenForCallback(0);
    try {
      expect(app.redirectUri).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/callback$/);
      const verifier = oauth.generateRandomCodeVerifier();
      const { location } = await authorize(
        client.id,
        app.redirectUri,
        await oauth.calculatePKCECodeChallenge(verifier),
      );
      expect(location.startsWith(`${app.redirectUri}?`)).toBe(true);
      // The browser follows the redirect to the app's own listener.
      const arrived = app.next();
      void fetch(location).catch(() => undefined);
      const hit = await arrived;
      hit.respond('You may close this window.');
      const params = oauth.validateAuthResponse(t.as, { client_id: client.id }, hit.url, 'st-1');
      const tokens = await exchange(client.id, params, app.redirectUri, verifier);
      expect(tokens).toMatchObject({ token_type: 'bearer', scope: 'check-status' });
      expect(tokens.refresh_token).toBeTypeOf('string');
    } finally {
      await app.close();
    }
  });

  it('RFC 8252 §7.3: [::1] matches on any port too; the port is the only part that may differ', async () => {
    const { body: client } = await register('http://[::1]:1234/cb?app=1');
    const challenge = await oauth.calculatePKCECodeChallenge(oauth.generateRandomCodeVerifier());
    const { location } = await authorize(client.id, 'http://[::1]:61000/cb?app=1', challenge);
    expect(location).toMatch(/^http:\/\/\[::1\]:61000\/cb\?app=1&code=/);
    await expectShownNotRedirected(client.id, challenge, [
      'http://[::1]:61000/cb?app=2',
      'http://[::1]:61000/cb',
      'http://[::1]:61000/cb/?app=1',
      'http://127.0.0.1:61000/cb?app=1',
      'https://[::1]:61000/cb?app=1',
    ]);
  });

  it('a loopback redirect with a different path, or localhost for 127.0.0.1, is shown as an error page, never redirected', async () => {
    const { body: client } = await register('http://127.0.0.1/callback');
    const challenge = await oauth.calculatePKCECodeChallenge(oauth.generateRandomCodeVerifier());
    await expectShownNotRedirected(client.id, challenge, [
      'http://127.0.0.1:50123/other',
      'http://127.0.0.1:50123/callback/extra',
      'http://127.0.0.1:50123/callback?x=1',
      'http://localhost:50123/callback',
      'http://127.0.0.1:0/callback',
      'http://127.0.0.1:70000/callback',
      'http://127.0.0.1.evil.example:50123/callback',
    ]);
  });

  it('a confidential client keeps exact matching: its loopback port is part of the redirect', async () => {
    const { body: client } = await register('http://127.0.0.1:9999/callback', true);
    const challenge = await oauth.calculatePKCECodeChallenge(oauth.generateRandomCodeVerifier());
    expect((await authorize(client.id, 'http://127.0.0.1:9998/callback', challenge)).page.status).toBe(400);
    expect((await authorize(client.id, 'http://127.0.0.1:9999/callback', challenge)).location).toMatch(
      /^http:\/\/127\.0\.0\.1:9999\/callback\?code=/,
    );
  });

  it.each(['com.example.app:/oauth2redirect', 'cursor://anysphere.cursor-retrieval/oauth/callback'])(
    'RFC 8252 §7.1: the private-use scheme %s is registered, redirected to exactly, and the code redeemed',
    async (redirect) => {
      const { status, body: client } = await register(redirect);
      expect(status).toBe(201);
      const verifier = oauth.generateRandomCodeVerifier();
      const challenge = await oauth.calculatePKCECodeChallenge(verifier);
      const { location } = await authorize(client.id, redirect, challenge);
      expect(location.startsWith(`${redirect}?code=`)).toBe(true);
      const params = oauth.validateAuthResponse(t.as, { client_id: client.id }, new URL(location), 'st-1');
      const tokens = await exchange(client.id, params, redirect, verifier);
      expect(tokens.access_token).toBeTypeOf('string');
      // Matched exactly: another path of the same scheme is refused.
      const other = await authorize(client.id, `${redirect}x`, challenge);
      expect(other.page.status).toBe(400);
      expect(other.page.headers.get('location')).toBeNull();
    },
  );

  it('registration refuses script, file and data schemes, and plain http off loopback for a public client', async () => {
    for (const redirect of [
      'javascript:alert(1)',
      'data:text/html,<script>alert(1)</script>',
      'file:///etc/passwd',
      'vbscript:msgbox',
      'http://app.example/callback',
      'http://127.0.0.1/callback#frag',
      'https://user:pass@app.example/cb',
      'com.example.app:/cb, javascript:alert(1)',
    ]) {
      const { status, body } = await register(redirect);
      expect(status, redirect).toBe(422);
      expect(body.errors.redirect, redirect).toHaveLength(1);
    }
    // Private-use schemes are for native apps; a confidential client is a web server.
    const confidential = await register('com.example.app:/cb', true);
    expect(confidential.status).toBe(422);
    expect(confidential.body.errors.redirect[0]).toContain('public');
    expect((await register('http://localhost:8080/cb')).status).toBe(201);
    expect((await register('https://app.example/cb, com.example.app:/cb')).status).toBe(201);
  });

  it("PUT checks the redirect against the client's own type", async () => {
    const { body: client } = await register('com.example.app:/cb');
    const put = (redirect: string) =>
      ada.json('PUT', `/oauth/clients/${client.id}`, { name: 'Native', redirect }, csrf);
    expect((await put('http://127.0.0.1/cb')).status).toBe(200);
    expect((await put('http://app.example/cb')).status).toBe(422);
    const { body: web } = await register('https://web.example/cb', true);
    const webPut = await ada.json(
      'PUT',
      `/oauth/clients/${web.id}`,
      { name: 'Web', redirect: 'com.example.app:/cb' },
      csrf,
    );
    expect(webPut.status).toBe(422);
  });
});
