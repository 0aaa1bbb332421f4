import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { REGISTERED } from '../../src/auth/controllers/register-controller.js';
import type { TestApp } from '../support/app.js';
import { ENGINES } from '../support/engines.js';
import { Browser, tokenIn } from './browser.js';
import { ADA, authApp, countRows } from './fixture.js';

describe.each(ENGINES)('login, logout and registration pages (%s)', (engine) => {
  let t: TestApp;
  let browser: Browser;

  beforeEach(async () => {
    t = await authApp({ engine });
    browser = new Browser(t);
  });
  afterEach(() => t.close());

  const whoAmI = async (b: Browser) => ((await (await b.get('/me')).json()) as { user: string | null }).user;

  it('renders the login page as a full document with a CSRF field and security headers', async () => {
    const res = await browser.get('/login');
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html.startsWith('<!DOCTYPE html>')).toBe(true);
    expect(html).toContain('<form method="post" action="/login"');
    expect(tokenIn(html)).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(html).toMatch(/<link rel="stylesheet" href="\/assets\/app\.css\?v=[0-9a-f]{12}"/);
    expect(res.headers.get('x-frame-options')).toBe('DENY');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('serves the stylesheet with its version as ETag', async () => {
    const res = await browser.get('/assets/app.css?v=1');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/css');
    expect(await res.text()).toContain('.btn-primary');
    const etag = res.headers.get('etag')!;
    expect((await browser.get('/assets/app.css', { 'if-none-match': etag })).status).toBe(304);
  });

  it('logs in with the right password: redirect to the dashboard, session user set', async () => {
    const res = await browser.submit('/login', { email: ADA.email, password: ADA.password });
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe('/dashboard');
    expect(await whoAmI(browser)).toBe(ADA.email);
    const dashboard = await browser.get('/dashboard');
    expect(dashboard.status).toBe(200);
    const html = await dashboard.text();
    expect(html).toContain(ADA.name);
    expect(html).toContain('action="/logout"');
    expect(html).toMatch(/<meta name="csrf-token" content="[A-Za-z0-9_-]{43}"\/>/);
  });

  it('accepts the e-mail in another case and with spaces', async () => {
    const res = await browser.submit('/login', { email: '  ADA@Example.com ', password: ADA.password });
    expect(res.headers.get('location')).toBe('/dashboard');
    expect(await whoAmI(browser)).toBe(ADA.email);
  });

  it('wrong password: the login page again with the message, the e-mail kept, no session user', async () => {
    const res = await browser.submit('/login', { email: ADA.email, password: 'wrong password' });
    expect(res.status).toBe(422);
    const html = await res.text();
    expect(html).toContain('These credentials do not match our records.');
    expect(html).toContain(`value="${ADA.email}"`);
    expect(html).not.toContain(ADA.password);
    expect(await whoAmI(browser)).toBeNull();
    const users = await t.app.db.selectFrom('sessions').select('user_id').execute();
    expect(users.every((s) => s.user_id === null)).toBe(true);
  });

  it('unknown e-mail: the same message as a wrong password', async () => {
    const res = await browser.submit('/login', { email: 'nobody@example.com', password: ADA.password });
    expect(res.status).toBe(422);
    expect(await res.text()).toContain('These credentials do not match our records.');
    expect(await whoAmI(browser)).toBeNull();
  });

  it('missing fields: messages next to the fields', async () => {
    const res = await browser.submit('/login', { email: '', password: '' });
    expect(res.status).toBe(422);
    const html = await res.text();
    expect(html).toContain('The email field is required.');
    expect(html).toContain('The password field is required.');
  });

  it('limits failed attempts per e-mail to 5 a minute, then lets the user in again', async () => {
    for (let i = 0; i < 5; i++) {
      expect((await browser.submit('/login', { email: ADA.email, password: `wrong ${i}` })).status).toBe(422);
    }
    const blocked = await browser.submit('/login', { email: ADA.email, password: ADA.password });
    expect(blocked.status).toBe(429);
    expect(await blocked.text()).toMatch(/Too many login attempts\. Please try again in \d+ seconds\./);
    expect(await whoAmI(browser)).toBeNull();
    // Another account from the same address is not affected.
    const other = await browser.submit('/login', { email: 'eve@example.com', password: 'x' });
    expect(other.status).toBe(422);

    t.clock.advance(61_000);
    const res = await browser.submit('/login', { email: ADA.email, password: ADA.password });
    expect(res.status).toBe(302);
    expect(await whoAmI(browser)).toBe(ADA.email);
  });

  it('redirects to the intended same-site URL after login, never to another site', async () => {
    const page = await browser.get('/login?intended=%2Fprivate%3Fx%3D1');
    const html = await page.text();
    expect(html).toContain('name="intended" value="/private?x=1"');
    const res = await browser.post('/login', {
      _token: tokenIn(html),
      email: ADA.email,
      password: ADA.password,
      intended: '/private?x=1',
    });
    expect(res.headers.get('location')).toBe('/private?x=1');

    const other = new Browser(t);
    for (const evil of ['https://evil.example/', '//evil.example/x', '/\\evil.example']) {
      const r = await other.submit('/login', { email: ADA.email, password: ADA.password, intended: evil });
      expect(r.headers.get('location')).toBe('/dashboard');
      await other.post('/logout', { _token: await other.csrfToken('/dashboard') });
    }
  });

  it('guest pages send a signed-in user to the dashboard', async () => {
    await browser.submit('/login', { email: ADA.email, password: ADA.password });
    const res = await browser.get('/login');
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe('/dashboard');
    expect((await browser.get('/register')).headers.get('location')).toBe('/dashboard');
  });

  it('logout destroys the session: its row is gone and its cookie no longer authenticates', async () => {
    await browser.submit('/login', { email: ADA.email, password: ADA.password });
    const cookie = browser.cookieHeader();
    expect(await countRows(t, 'sessions')).toBe(1);
    const token = tokenIn(await (await browser.get('/dashboard')).text());

    const res = await browser.post('/logout', { _token: token });
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe('/login');
    expect(await (await browser.get('/login')).text()).toContain('You have been logged out.');
    // The old row is deleted; the only row left is the fresh guest session carrying the flash.
    const rows = await t.app.db.selectFrom('sessions').selectAll().execute();
    expect(rows.every((r) => r.user_id === null)).toBe(true);
    expect(await whoAmI(browser)).toBeNull();

    const replay = await t.request('/me', { headers: { cookie } });
    expect(await replay.json()).toEqual({ user: null });
    expect((await t.request('/private', { headers: { cookie } })).status).toBe(302);
  });

  it('registers a user, who then logs in with the new password', async () => {
    const res = await browser.submit('/register', {
      name: 'Grace Hopper',
      email: 'grace@example.com',
      password: 'a long password',
      password_confirmation: 'a long password',
    });
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe('/login');
    expect(await (await browser.get('/login')).text()).toContain(REGISTERED);
    // Not signed in by the sign-up itself: a taken address must get the very same answer.
    expect(await whoAmI(browser)).toBeNull();
    const row = await t.app.db
      .selectFrom('users')
      .selectAll()
      .where('email', '=', 'grace@example.com')
      .executeTakeFirstOrThrow();
    expect(row.password).toMatch(/^\$argon2id\$/);

    await browser.submit('/login', { email: 'grace@example.com', password: 'a long password' });
    const dashboard = await (await browser.get('/dashboard')).text();
    expect(dashboard).toContain('Grace Hopper');
    expect(await whoAmI(browser)).toBe('grace@example.com');
  });

  it('registration does not tell whether an e-mail has an account: the same answer either way', async () => {
    const answer = async (email: string) => {
      const visitor = new Browser(t);
      const res = await visitor.submit('/register', {
        name: 'Someone',
        email,
        password: 'another password',
        password_confirmation: 'another password',
      });
      const page = await (await visitor.get('/login')).text();
      return { status: res.status, location: res.headers.get('location'), told: page.includes(REGISTERED) };
    };
    const taken = await answer(ADA.email.toUpperCase());
    const free = await answer('new@example.com');
    expect(taken).toEqual(free);
    expect(taken).toEqual({ status: 302, location: '/login', told: true });
    // Ada's account is untouched: her password still works, the other one does not.
    const other = await new Browser(t).submit('/login', { email: ADA.email, password: 'another password' });
    expect(other.status).toBe(422);
    expect(await countRows(t, 'users')).toBe(2);
  });

  it('registration errors are shown next to the fields with the old input kept', async () => {
    const res = await browser.submit('/register', {
      name: 'Grace <b>Hopper</b>',
      email: 'not-an-email',
      password: 'short',
      password_confirmation: 'different',
    });
    expect(res.status).toBe(422);
    const html = await res.text();
    expect(html).toContain('The email field must be a valid email address.');
    expect(html).toContain('The password field must be at least 8 characters.');
    expect(html).toContain('The password field confirmation does not match.');
    expect(html).toContain('value="Grace &lt;b&gt;Hopper&lt;/b&gt;"');
    expect(html).toContain('value="not-an-email"');
    expect(html).not.toContain('value="short"');
    expect(await countRows(t, 'users')).toBe(1);
    expect(await whoAmI(browser)).toBeNull();
  });
});
