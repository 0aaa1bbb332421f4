import { afterEach, describe, expect, it } from 'vitest';
import { Guards } from '../../src/auth/index.js';
import { Session } from '../../src/auth/session.js';
import { SessionStore } from '../../src/auth/session-store.js';
import { Users } from '../../src/auth/users.js';
import { HttpError } from '../../src/core/errors.js';
import type { TestApp } from '../support/app.js';
import { ENGINES } from '../support/engines.js';
import { Browser } from './browser.js';
import { ADA, authApp, countRows } from './fixture.js';

describe.each(ENGINES)('database sessions (%s)', (engine) => {
  let t: TestApp;
  afterEach(() => t.close());

  const whoAmI = async (b: Browser) => ((await (await b.get('/me')).json()) as { user: string | null }).user;
  const sessionCookie = (b: Browser) => b.cookies.get('tollgate_session');

  it('sets an HttpOnly, SameSite=Lax, Path=/ cookie holding a 256-bit id; the table holds only its hash', async () => {
    t = await authApp({ engine });
    const res = await new Browser(t).get('/login');
    const line = res.headers.getSetCookie().find((l) => l.startsWith('tollgate_session='))!;
    expect(line).toMatch(/^tollgate_session=[A-Za-z0-9_-]{43};/);
    expect(line).toContain('HttpOnly');
    expect(line).toContain('SameSite=Lax');
    expect(line).toContain('Path=/');
    expect(line).toContain('Max-Age=7200');
    expect(line).not.toContain('Secure');
    const id = /^tollgate_session=([^;]+)/.exec(line)![1]!;
    const rows = await t.app.db.selectFrom('sessions').select('id').execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]!.id).toMatch(/^[0-9a-f]{64}$/);
    expect(rows[0]!.id).not.toBe(id);
  });

  it('marks the cookie Secure when the app URL is https, and uses the configured name', async () => {
    t = await authApp({
      engine,
      config: { app: { url: 'https://tollgate.example' }, session: { cookie: 'sid' } },
    });
    const line = (await new Browser(t).get('/login')).headers.getSetCookie()[0]!;
    expect(line).toMatch(/^sid=/);
    expect(line).toContain('Secure');
  });

  it('stores nothing for visits that never use the session', async () => {
    t = await authApp({ engine });
    const res = await new Browser(t).get('/me');
    expect(res.headers.getSetCookie()).toEqual([]);
    expect(await countRows(t, 'sessions')).toBe(0);
  });

  it('fixation: the session cookie from before login is not valid after it', async () => {
    t = await authApp({ engine });
    const browser = new Browser(t);
    const token = await browser.csrfToken('/login');
    const before = sessionCookie(browser)!;
    const res = await browser.post('/login', { _token: token, email: ADA.email, password: ADA.password });
    expect(res.status).toBe(302);
    const after = sessionCookie(browser)!;
    expect(after).not.toBe(before);
    expect(await whoAmI(browser)).toBe(ADA.email);

    // An attacker who planted or saw the pre-login id gets nothing from it.
    const planted = await t.request('/me', { headers: { cookie: `tollgate_session=${before}` } });
    expect(await planted.json()).toEqual({ user: null });
    // The CSRF token was renewed too.
    const old = await browser.post('/notes', { _token: token, note: 'x' });
    expect(old.status).toBe(419);
  });

  it('keeps data between requests (put) and slides the expiry at most once a minute', async () => {
    t = await authApp({ engine });
    const browser = new Browser(t);
    const token = await browser.csrfToken('/login');
    await browser.post('/notes', { _token: token, note: 'kept' });
    const stored = await t.app.db.selectFrom('sessions').selectAll().executeTakeFirstOrThrow();
    expect(JSON.parse(stored.payload).data).toEqual({ note: 'kept' });

    t.clock.advance(30_000);
    await browser.get('/me');
    const same = await t.app.db.selectFrom('sessions').selectAll().executeTakeFirstOrThrow();
    expect(same.last_activity).toBe(stored.last_activity);

    t.clock.advance(60_000);
    await browser.get('/me');
    const touched = await t.app.db.selectFrom('sessions').selectAll().executeTakeFirstOrThrow();
    expect(Date.parse(touched.expires_at)).toBe(t.clock.now().getTime() + 120 * 60_000);
  });

  it('a session past its lifetime is not accepted', async () => {
    t = await authApp({ engine, config: { session: { lifetimeMinutes: 30 } } });
    const browser = new Browser(t);
    await browser.submit('/login', { email: ADA.email, password: ADA.password });
    expect(await whoAmI(browser)).toBe(ADA.email);

    t.clock.advance(29 * 60_000);
    expect(await whoAmI(browser)).toBe(ADA.email); // slid forward by this request

    t.clock.advance(30 * 60_000 + 1);
    const res = await browser.get('/private');
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe('/login?intended=%2Fprivate');
    expect(await whoAmI(browser)).toBeNull();
    expect(await countRows(t, 'sessions')).toBe(0);
  });

  it('a deleted user is signed out', async () => {
    t = await authApp({ engine });
    const browser = new Browser(t);
    await browser.submit('/login', { email: ADA.email, password: ADA.password });
    await t.app.db.deleteFrom('users').where('email', '=', ADA.email).execute();
    expect(await whoAmI(browser)).toBeNull();
  });

  it('claim: takes a one-time value from the stored row once; `_` and `%` in the marker are literal', async () => {
    t = await authApp({ engine });
    const store = t.app.container.make(SessionStore);
    const session = new Session().put('pending', { authToken: 'a_b%cXd' });
    await store.save(session);
    const [first, second] = [await store.load(session.id), await store.load(session.id)];
    first!.session.forget('pending');
    second!.session.forget('pending');
    expect(await store.claim(first!.session, '"authToken":"a_b%c_d"')).toBe(false);
    expect(await store.claim(first!.session, '"authToken":"a_b%cXd"')).toBe(true);
    // The other copy loaded before the claim finds the value gone from the row.
    expect(await store.claim(second!.session, '"authToken":"a_b%cXd"')).toBe(false);
    expect((await store.load(session.id))!.session.has('pending')).toBe(false);
  });
});

describe.each(ENGINES)('the auth and guest middleware (%s)', (engine) => {
  let t: TestApp;
  afterEach(() => t.close());

  it('redirects pages to the login page with the intended URL, and answers JSON with 401', async () => {
    t = await authApp({ engine });
    const page = await t.request('/private?tab=keys');
    expect(page.status).toBe(302);
    expect(page.headers.get('location')).toBe('/login?intended=%2Fprivate%3Ftab%3Dkeys');
    const json = await t.request('/private', { headers: { accept: 'application/json' } });
    expect(json.status).toBe(401);
    expect(await json.json()).toEqual({ message: 'Unauthenticated.' });
    const xhr = await t.request('/private', { headers: { 'x-requested-with': 'XMLHttpRequest' } });
    expect(xhr.status).toBe(401);
  });

  it('lets a signed-in user through and sets user and guard', async () => {
    t = await authApp({
      engine,
      setup(app) {
        app.router
          .get('/whoami', (c) => c.json({ user: c.get('user')?.email, guard: c.get('guard') }))
          .middleware('web', 'auth:web');
      },
    });
    const browser = new Browser(t);
    await browser.submit('/login', { email: ADA.email, password: ADA.password });
    expect(await (await browser.get('/private')).text()).toBe(`hello ${ADA.name}`);
    expect(await (await browser.get('/whoami')).json()).toEqual({ user: ADA.email, guard: 'web' });
  });

  it('tries guards in order (auth:web,api); a guard can reject with its own HttpError', async () => {
    t = await authApp({
      engine,
      setup(app) {
        // A stand-in for the token guard: "Bearer ada" is Ada, any other bearer token is rejected.
        Guards.of(app).define('api', async (c) => {
          const header = c.req.header('authorization');
          if (!header) return undefined;
          if (header === 'Bearer ada') return app.container.make(Users).findByEmail(ADA.email);
          throw new HttpError(401, 'Unauthenticated.', {
            headers: { 'WWW-Authenticate': 'Bearer error="invalid_token"' },
          });
        });
        const whoami = (c: import('hono').Context) =>
          c.json({ user: c.get('user')?.email, guard: c.get('guard') });
        app.router.get('/api/user', whoami).middleware('auth:api');
        app.router.get('/either', whoami).middleware('web', 'auth:web,api');
      },
    });
    const ok = await t.request('/api/user', {
      headers: { authorization: 'Bearer ada', accept: 'application/json' },
    });
    expect(await ok.json()).toEqual({ user: ADA.email, guard: 'api' });

    const bad = await t.request('/api/user', {
      headers: { authorization: 'Bearer x', accept: 'application/json' },
    });
    expect(bad.status).toBe(401);
    expect(bad.headers.get('www-authenticate')).toBe('Bearer error="invalid_token"');

    const none = await t.request('/api/user', { headers: { accept: 'application/json' } });
    expect(none.status).toBe(401);
    expect(await none.json()).toEqual({ message: 'Unauthenticated.' });

    const viaToken = await t.request('/either', { headers: { authorization: 'Bearer ada' } });
    expect(await viaToken.json()).toEqual({ user: ADA.email, guard: 'api' });
    const browser = new Browser(t);
    await browser.submit('/login', { email: ADA.email, password: ADA.password });
    expect(await (await browser.get('/either')).json()).toEqual({ user: ADA.email, guard: 'web' });
  });

  it('an unknown guard name fails at boot, naming it', async () => {
    await expect(
      authApp({
        engine,
        setup(app) {
          app.router.get('/x', () => 'x').middleware('web', 'auth:nope');
        },
      }),
    ).rejects.toThrow(/Unknown auth guard "nope"/);
    t = await authApp({ engine });
  });
});
