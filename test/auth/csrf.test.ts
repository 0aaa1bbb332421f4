import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { csrfExcept } from '../../src/auth/index.js';
import type { TestApp } from '../support/app.js';
import { ENGINES } from '../support/engines.js';
import { Browser } from './browser.js';
import { ADA, authApp, countRows } from './fixture.js';

describe.each(ENGINES)('CSRF protection of the web group (%s)', (engine) => {
  let t: TestApp;
  let browser: Browser;

  beforeEach(async () => {
    t = await authApp({
      engine,
      config: { csrf: { except: ['/hooks/config/*'] } },
      setup(app) {
        csrfExcept(app, 'webhooks/*');
        const hook = async (c: import('hono').Context) => {
          const body = await c.req.parseBody();
          return c.json({ received: body.event ?? null });
        };
        app.router.post('/webhooks/stripe', hook).middleware('web');
        app.router.post('/hooks/config/braintree', hook).middleware('web');
        app.router
          .delete('/notes', (c) => {
            c.get('session')!.forget('note');
            return c.json({ deleted: true });
          })
          .middleware('web');
      },
    });
    browser = new Browser(t);
  });
  afterEach(() => t.close());

  const registration = {
    name: 'Mallory',
    email: 'mallory@example.com',
    password: 'a long password',
    password_confirmation: 'a long password',
  };

  it('a form without _token is refused with 419 and a page, and nothing is created', async () => {
    await browser.get('/register');
    const res = await browser.post('/register', registration);
    expect(res.status).toBe(419);
    expect(res.headers.get('content-type')).toContain('text/html');
    const html = await res.text();
    expect(html.startsWith('<!DOCTYPE html>')).toBe(true);
    expect(html).toContain('CSRF token mismatch.');
    expect(await countRows(t, 'users')).toBe(1);
  });

  it('a wrong _token is refused with 419, and nothing is created', async () => {
    const token = await browser.csrfToken('/register');
    const wrong = token.slice(0, -1) + (token.endsWith('A') ? 'B' : 'A');
    for (const bad of [wrong, 'short', '']) {
      const res = await browser.post('/register', { ...registration, _token: bad });
      expect(res.status).toBe(419);
    }
    expect(await countRows(t, 'users')).toBe(1);
  });

  it("another visitor's token does not work with my session", async () => {
    const theirs = await new Browser(t).csrfToken('/register');
    await browser.get('/register');
    const res = await browser.post('/register', { ...registration, _token: theirs });
    expect(res.status).toBe(419);
    expect(await countRows(t, 'users')).toBe(1);
  });

  it('a login with a bad token does not log in', async () => {
    await browser.get('/login');
    const res = await browser.post('/login', { _token: 'nope', email: ADA.email, password: ADA.password });
    expect(res.status).toBe(419);
    expect(await (await browser.get('/me')).json()).toEqual({ user: null });
  });

  it('a logout with a bad token leaves the session signed in', async () => {
    await browser.submit('/login', { email: ADA.email, password: ADA.password });
    const res = await browser.post('/logout', { _token: 'nope' });
    expect(res.status).toBe(419);
    expect(await (await browser.get('/me')).json()).toEqual({ user: ADA.email });
  });

  it('JSON requests get 419 JSON; the X-CSRF-TOKEN header is accepted', async () => {
    const token = await browser.csrfToken('/login');
    const json = { 'content-type': 'application/json', accept: 'application/json' };
    const refused = await browser.request('/notes', {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ note: 'x' }),
    });
    expect(refused.status).toBe(419);
    expect(await refused.json()).toEqual({ message: 'CSRF token mismatch.' });

    const accepted = await browser.request('/notes', {
      method: 'POST',
      headers: { ...json, 'x-csrf-token': token },
      body: JSON.stringify({ note: 'x' }),
    });
    expect(accepted.status).toBe(200);
  });

  it('the handler still reads the form after the token was checked', async () => {
    const token = await browser.csrfToken('/login');
    const res = await browser.post('/notes', { _token: token, note: 'remember the milk' });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ note: 'remember the milk' });
  });

  it('a state-changing request with no session cookie at all is refused and stores nothing', async () => {
    const res = await browser.post('/notes', { note: 'x' });
    expect(res.status).toBe(419);
    expect(await countRows(t, 'sessions')).toBe(0);
  });

  it('a form spoofing DELETE with _method is checked like any other', async () => {
    const token = await browser.csrfToken('/login');
    await browser.post('/notes', { _token: token, note: 'keep me' });
    const refused = await browser.post('/notes', { _method: 'DELETE' });
    expect(refused.status).toBe(419);
    const row = await t.app.db.selectFrom('sessions').select('payload').executeTakeFirstOrThrow();
    expect(JSON.parse(row.payload).data).toEqual({ note: 'keep me' });
    const accepted = await browser.post('/notes', { _method: 'DELETE', _token: token });
    expect(await accepted.json()).toEqual({ deleted: true });
  });

  it('paths excepted in code (csrfExcept) and in config.csrf.except pass without a token', async () => {
    const a = await browser.post('/webhooks/stripe', { event: 'invoice.paid' });
    expect(a.status).toBe(200);
    expect(await a.json()).toEqual({ received: 'invoice.paid' });
    const b = await browser.post('/hooks/config/braintree', { event: 'subscription_went_active' });
    expect(b.status).toBe(200);
    // The exception is by pattern, not by prefix.
    expect((await browser.post('/notes', { note: 'webhooks/stripe' })).status).toBe(419);
  });
});
