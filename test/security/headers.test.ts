import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from '../auth/browser.js';
import { ANY_ENGINE } from '../support/engines.js';
import { type ChildServer, startChildServer } from './child.js';
import { httpBrowser, jsonHeaders, register } from './http-browser.js';

/** An inline script: a `<script>` without `src`, or an `on…=` event handler attribute. */
const INLINE_SCRIPT = /<script(?![^>]*\ssrc=)[^>]*>|\son[a-z]+=/i;

function expectProtected(res: Response, path: string): void {
  const csp = res.headers.get('content-security-policy') ?? '';
  expect(csp, path).toContain("script-src 'self' https://js.stripe.com;");
  expect(csp, path).toContain("frame-ancestors 'none'");
  expect(csp, path).toContain("object-src 'none'");
  expect(csp, path).toContain("base-uri 'none'");
  expect(csp, path).not.toContain('unsafe-inline');
  expect(csp, path).not.toContain('unsafe-eval');
  expect(res.headers.get('x-content-type-options'), path).toBe('nosniff');
  expect(res.headers.get('x-frame-options'), path).toBe('DENY');
}

// The reference service served by Node (`listen`), as in production: every response carries the
// strict CSP, nosniff and framing refusal, and everything but versioned assets `no-store`.
describe('response headers on every response', () => {
  let server: ChildServer;
  let browser: Browser;
  beforeAll(async () => {
    server = await startChildServer(ANY_ENGINE);
    browser = httpBrowser(server.url);
    await register(browser, 'grace@example.com');
  }, 120_000);
  afterAll(() => server?.stop());

  it('the 404 page, JSON errors, the OAuth endpoints and /api: strict CSP, nosniff, DENY, no-store', async () => {
    // Discovery documents say how long they may be cached; everything else is no-store.
    const cacheable = ['/.well-known/oauth-authorization-server', '/oauth/jwks'];
    const cases: [string, RequestInit | undefined, number][] = [
      ['/no/such/page', undefined, 404],
      ['/no/such/page', { headers: { accept: 'application/json' } }, 404],
      ['/api/user', { headers: { accept: 'application/json' } }, 401],
      ['/api/orders', { headers: { authorization: 'Bearer nope', accept: 'application/json' } }, 401],
      ['/oauth/token', { method: 'POST', body: new URLSearchParams({ grant_type: 'password' }) }, 400],
      ['/.well-known/oauth-authorization-server', undefined, 200],
      ['/oauth/jwks', undefined, 200],
      ['/health', undefined, 200],
    ];
    for (const [path, init, status] of cases) {
      const res = await fetch(`${server.url}${path}`, init);
      expect(res.status, path).toBe(status);
      expectProtected(res, path);
      if (cacheable.includes(path)) expect(res.headers.get('cache-control'), path).toMatch(/^public/);
      else expect(res.headers.get('cache-control'), path).toBe('no-store');
      await res.arrayBuffer();
    }
  });

  it('assets: nosniff and the CSP too, with their own cache lifetime', async () => {
    const page = await (await browser.get('/dashboard/tokens')).text();
    const script = /<script type="module" src="([^"]+)"/.exec(page)![1]!;
    const style = /<link rel="stylesheet" href="([^"]+)"/.exec(page)![1]!;
    for (const path of [script, style, '/assets/app.css']) {
      const res = await fetch(`${server.url}${path}`);
      expect(res.status, path).toBe(200);
      expectProtected(res, path);
      expect(res.headers.get('cache-control'), path).toMatch(/^public, max-age=\d+/);
      await res.arrayBuffer();
    }
  });

  it('the session JSON lists are no-store', async () => {
    const headers = await jsonHeaders(browser);
    const created = await browser.request('/oauth/clients', {
      method: 'POST',
      headers,
      body: JSON.stringify({ name: 'Headers', redirect: 'https://client.example/cb' }),
    });
    expect(created.status).toBe(201);
    for (const path of [
      '/oauth/clients',
      '/oauth/personal-access-tokens',
      '/oauth/tokens',
      '/oauth/scopes',
    ]) {
      const res = await browser.request(path, { headers });
      expect(res.status, path).toBe(200);
      expectProtected(res, path);
      expect(res.headers.get('cache-control'), path).toBe('no-store');
    }
  });

  it('every page: the CSP, and no inline script or style attribute in its HTML', async () => {
    const headers = await jsonHeaders(browser);
    const client = await (
      await browser.request('/oauth/clients', {
        method: 'POST',
        headers,
        body: JSON.stringify({ name: 'Pages', redirect: 'https://client.example/cb' }),
      })
    ).json();
    const approval = `/oauth/authorize?${new URLSearchParams({
      client_id: client.id,
      redirect_uri: 'https://client.example/cb',
      response_type: 'code',
      scope: '',
      state: 'xyz',
    })}`;
    const guest = httpBrowser(server.url);
    const pages: [Browser, string][] = [
      [guest, '/'],
      [guest, '/docs'],
      [guest, '/login'],
      [guest, '/register'],
      [browser, '/dashboard'],
      [browser, '/dashboard/clients'],
      [browser, '/dashboard/tokens'],
      [browser, '/dashboard/billing'],
      [browser, approval],
    ];
    for (const [who, path] of pages) {
      const res = await who.get(path);
      expect(res.status, path).toBe(200);
      expect(res.headers.get('content-type'), path).toContain('text/html');
      expectProtected(res, path);
      expect(res.headers.get('cache-control'), path).toBe('no-store');
      const html = await res.text();
      expect(html, path).not.toMatch(INLINE_SCRIPT);
      expect(html, path).not.toMatch(/\sstyle="/);
    }
  });
});
