import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { codeAt } from '../../src/accounts/two-factor/totp.js';
import { TwoFactor } from '../../src/accounts/two-factor/two-factor.js';
import type { User } from '../../src/auth/user.js';
import { Users } from '../../src/auth/users.js';
import { Browser, tokenIn } from '../auth/browser.js';
import { ANY_ENGINE } from '../support/engines.js';
import { type AccountsTestApp, accountsApp } from './support.js';

const PASSWORD = 'correct horse battery';

async function signIn(t: AccountsTestApp, email: string): Promise<Browser> {
  const browser = new Browser(t);
  expect((await browser.submit('/login', { email, password: PASSWORD })).status).toBe(302);
  return browser;
}

/** Sets the app up in `browser` through the account page; returns its seed. */
async function setUp(t: AccountsTestApp, browser: Browser): Promise<string> {
  const token = tokenIn(await (await browser.get('/account')).text());
  expect((await browser.post('/account/two-factor', { _token: token })).status).toBe(303);
  const setup = await (await browser.get('/account/two-factor/setup')).text();
  const seed = /<code id="totp-key">([^<]+)<\/code>/.exec(setup)![1]!.replace(/ /g, '');
  const done = await browser.post('/account/two-factor/confirm', {
    _token: tokenIn(setup),
    code: codeAt(seed, t.clock.now()),
  });
  expect(done.status).toBe(200);
  return seed;
}

describe('a second factor required for everyone (TWO_FACTOR_REQUIRED=all)', () => {
  let t: AccountsTestApp;

  beforeAll(async () => {
    t = await accountsApp({ engine: ANY_ENGINE, config: { accounts: { twoFactor: { required: 'all' } } } });
    await t.app.container.make(Users).create({ name: 'ada', email: 'ada@example.com', password: PASSWORD });
  });
  afterAll(() => t?.close());

  it('a user without the app reaches only the account page until it is set up, and cannot turn it off', async () => {
    const browser = await signIn(t, 'ada@example.com');
    const dashboard = await browser.get('/dashboard');
    expect(dashboard.status).toBe(302);
    expect(dashboard.headers.get('location')).toBe('/account#two-factor');
    expect(await (await browser.get('/account')).text()).toContain('needs two-factor authentication');
    const json = await browser.get('/dashboard', { accept: 'application/json' });
    expect(json.status).toBe(403);
    expect((await json.json()).message).toContain('needs two-factor authentication');

    await setUp(t, browser);
    expect((await browser.get('/dashboard')).status).toBe(200);
    const off = await browser.post(
      '/account/two-factor/disable',
      { _token: tokenIn(await (await browser.get('/account')).text()) },
      { accept: 'application/json' },
    );
    expect(off.status).toBe(409);
    expect(await t.app.container.make(TwoFactor).enabled(1)).toBe(true);
  });
});

describe('a second factor required for a role (TwoFactor.requireWhen)', () => {
  let t: AccountsTestApp;

  beforeAll(async () => {
    t = await accountsApp({
      engine: ANY_ENGINE,
      setup: (app) => {
        app.container.make(TwoFactor).requireWhen((user: User) => user.email.endsWith('@staff.example'));
      },
    });
    const users = t.app.container.make(Users);
    await users.create({ name: 'sam', email: 'sam@staff.example', password: PASSWORD });
    await users.create({ name: 'cy', email: 'cy@example.com', password: PASSWORD });
  });
  afterAll(() => t?.close());

  it('holds back the users the rule picks, and no one else', async () => {
    expect((await (await signIn(t, 'cy@example.com')).get('/dashboard')).status).toBe(200);
    const staff = await signIn(t, 'sam@staff.example');
    expect((await staff.get('/dashboard')).headers.get('location')).toBe('/account#two-factor');
    const seed = await setUp(t, staff);
    expect((await staff.get('/dashboard')).status).toBe(200);

    // The next sign-in asks for the code, and with it the session passes without a query.
    t.clock.advance(30_000);
    const again = new Browser(t);
    const res = await again.submit('/login', { email: 'sam@staff.example', password: PASSWORD });
    expect(res.headers.get('location')).toBe('/login/two-factor');
    const step = await again.get('/login/two-factor');
    const done = await again.post('/login/two-factor', {
      _token: tokenIn(await step.text()),
      code: codeAt(seed, t.clock.now()),
    });
    expect(done.status).toBe(302);
    expect((await again.get('/dashboard')).status).toBe(200);
  });
});
