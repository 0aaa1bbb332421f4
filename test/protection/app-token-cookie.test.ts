import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINES } from '../support/engines.js';
import { ADA, BOB, Browser, type ProtectionApp, protectionApp } from './support.js';

const XHR = { 'x-requested-with': 'XMLHttpRequest' };

/** Spec "Authentication" 5: the frontend's encrypted app_token cookie, with X-CSRF-TOKEN and X-Requested-With. */
describe.each(ENGINES)('app_token cookie (%s)', (engine) => {
  let t: ProtectionApp;

  beforeAll(async () => {
    t = await protectionApp({ engine });
  });
  afterAll(async () => t.stop());

  async function signedIn(user = ADA): Promise<{ browser: Browser; csrf: string }> {
    const browser = new Browser(t.url);
    await browser.login(user);
    const csrf = await browser.page('/dashboard');
    return { browser, csrf };
  }

  it('a page for a signed-in user sets app_token: encrypted, HttpOnly, SameSite=Lax, not Secure over http', async () => {
    const { browser } = await signedIn();
    const line = browser.setCookie.get('app_token') ?? '';
    expect(line).toMatch(/^app_token=[^;]+/);
    expect(line).toMatch(/HttpOnly/i);
    expect(line).toMatch(/SameSite=Lax/i);
    expect(line).not.toMatch(/Secure/i);
    const value = browser.cookies.get('app_token')!;
    // A JWE compact serialization (five parts) whose header names dir + A256GCM; the claims are not readable.
    const parts = value.split('.');
    expect(parts).toHaveLength(5);
    expect(JSON.parse(Buffer.from(parts[0]!, 'base64url').toString())).toMatchObject({
      alg: 'dir',
      enc: 'A256GCM',
    });
    expect(value).not.toContain(String(ADA.email));
  });

  it('a redirect to a signed-in user sets no app_token: the page it leads to does', async () => {
    const browser = new Browser(t.url);
    await browser.login(ADA);
    browser.setCookie.clear();
    const redirect = await browser.request('/login');
    expect(redirect.status).toBe(302);
    expect(browser.setCookie.has('app_token')).toBe(false);
    await browser.page('/dashboard');
    expect(browser.setCookie.get('app_token')).toMatch(/^app_token=[^;]+/);
  });

  it('a guest gets no app_token', async () => {
    const browser = new Browser(t.url);
    await browser.request('/login');
    expect(browser.cookies.has('app_token')).toBe(false);
  });

  it('the cookie with X-CSRF-TOKEN and X-Requested-With authenticates the API as the user, all scopes', async () => {
    const { browser, csrf } = await signedIn();
    const me = await browser.api('/api/user', { ...XHR, 'x-csrf-token': csrf });
    expect(me.status).toBe(200);
    expect(await me.json()).toMatchObject({ email: ADA.email });
    expect((await browser.api('/api/orders', { ...XHR, 'x-csrf-token': csrf })).status).toBe(200);
    const placed = await browser.api(
      '/api/orders',
      { ...XHR, 'x-csrf-token': csrf, 'content-type': 'application/json' },
      { method: 'POST', body: JSON.stringify({ item: 'Punched cards' }) },
    );
    expect(placed.status).toBe(201);
  });

  it('the cookie without the CSRF header, with a wrong one, or without X-Requested-With → 401', async () => {
    const { browser, csrf } = await signedIn();
    const attempts: Record<string, string>[] = [
      { ...XHR },
      { ...XHR, 'x-csrf-token': `${csrf.slice(0, -2)}xx` },
      { 'x-csrf-token': csrf },
      { 'x-requested-with': 'fetch', 'x-csrf-token': csrf },
    ];
    for (const headers of attempts) {
      const res = await browser.api('/api/user', headers);
      expect(res.status).toBe(401);
      expect(await res.json()).toEqual({ message: 'Unauthenticated.' });
      expect(res.headers.get('www-authenticate')).toBe(
        'Bearer resource_metadata="http://localhost/.well-known/oauth-protected-resource"',
      );
    }
  });

  it("a cookie carried into another user's session → 401", async () => {
    const ada = await signedIn(ADA);
    const bob = await signedIn(BOB);
    const stolen = ada.browser.cookies.get('app_token')!;
    bob.browser.cookies.set('app_token', stolen);
    // Bob's session with Ada's cookie: neither Bob's CSRF token nor Ada's opens it.
    expect((await bob.browser.api('/api/user', { ...XHR, 'x-csrf-token': bob.csrf })).status).toBe(401);
    expect((await bob.browser.api('/api/user', { ...XHR, 'x-csrf-token': ada.csrf })).status).toBe(401);
    // Ada's cookie and token without her session cookie: refused too.
    const bare = new Browser(t.url);
    bare.cookies.set('app_token', stolen);
    expect((await bare.api('/api/user', { ...XHR, 'x-csrf-token': ada.csrf })).status).toBe(401);
    // Ada herself is still fine.
    expect((await ada.browser.api('/api/user', { ...XHR, 'x-csrf-token': ada.csrf })).status).toBe(200);
  });

  it('after logout the cookie is deleted, and replaying it is refused', async () => {
    const { browser, csrf } = await signedIn();
    const saved = new Map(browser.cookies);
    expect((await browser.api('/api/user', { ...XHR, 'x-csrf-token': csrf })).status).toBe(200);
    const out = await browser.logout(csrf);
    expect(out.status).toBe(302);
    expect(browser.cookies.has('app_token')).toBe(false);
    // Everything the browser held before logout, replayed.
    const replay = new Browser(t.url);
    for (const [k, v] of saved) replay.cookies.set(k, v);
    expect((await replay.api('/api/user', { ...XHR, 'x-csrf-token': csrf })).status).toBe(401);
  });

  it('a cookie past its lifetime (TestClock) → 401', async () => {
    const { browser, csrf } = await signedIn();
    const start = t.clock.now();
    try {
      t.clock.advance(t.app.config.session.lifetimeMinutes * 60_000 + 1000);
      expect((await browser.api('/api/user', { ...XHR, 'x-csrf-token': csrf })).status).toBe(401);
    } finally {
      t.clock.set(start);
    }
  });

  it('a forged cookie → 401', async () => {
    const { browser, csrf } = await signedIn();
    const value = browser.cookies.get('app_token')!;
    const parts = value.split('.');
    parts[3] = parts[3]!.startsWith('A') ? `B${parts[3]!.slice(1)}` : `A${parts[3]!.slice(1)}`;
    browser.cookies.set('app_token', parts.join('.'));
    expect((await browser.api('/api/user', { ...XHR, 'x-csrf-token': csrf })).status).toBe(401);
  });
});

describe.each(ENGINES)('app_token cookie under https (%s)', (engine) => {
  it('is Secure when the application URL is https', async () => {
    const t = await protectionApp({ engine, config: { app: { url: 'https://tollgate.test' } } });
    try {
      const browser = new Browser(t.url);
      await browser.login(ADA);
      await browser.request('/dashboard');
      expect(browser.setCookie.get('app_token')).toMatch(/;\s*Secure/i);
    } finally {
      await t.stop();
    }
  });
});
