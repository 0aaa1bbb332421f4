import type { ParsedMail } from 'mailparser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  EmailChanged,
  NOTIFICATION_KINDS,
  Notifications,
  PasswordReset,
  SECURITY_NOTIFICATIONS,
} from '../../src/accounts/index.js';
import { Users } from '../../src/auth/users.js';
import { InvoicePaid, PaymentFailed, SubscriptionCancelled, TrialWillEnd } from '../../src/billing/index.js';
import { Clients } from '../../src/oauth/index.js';
import { Browser, tokenIn } from '../auth/browser.js';
import { ANY_ENGINE } from '../support/engines.js';
import { type AccountsTestApp, accountsApp } from './support.js';

const PASSWORD = 'correct horse battery';
const FIREFOX = 'Mozilla/5.0 (X11; Linux x86_64; rv:140.0) Gecko/20100101 Firefox/140.0';
const PHONE = 'Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) Mobile/15E148';

/** Signs in from a browser with this user agent; the browser keeps the session. */
async function signIn(t: AccountsTestApp, email: string, userAgent = FIREFOX): Promise<Browser> {
  const browser = new Browser(t);
  const page = await browser.get('/login', { 'user-agent': userAgent });
  const res = await browser.post(
    '/login',
    { _token: tokenIn(await page.text()), email, password: PASSWORD },
    { 'user-agent': userAgent },
  );
  expect(res.status).toBe(302);
  return browser;
}

/** A JSON call from the signed-in browser, as a same-origin frontend makes it. */
async function json(browser: Browser, path: string, body: unknown): Promise<Response> {
  const csrf = tokenIn(await (await browser.get('/forgot-password')).text());
  return browser.request(path, {
    method: 'POST',
    headers: {
      accept: 'application/json',
      'content-type': 'application/json',
      origin: 'http://localhost',
      'x-csrf-token': csrf,
    },
    body: JSON.stringify(body),
  });
}

/** Mail of one kind, by its subject's words: waits for `count` of them to arrive, then a moment for any extra. */
async function mailsOf(
  t: AccountsTestApp,
  to: string,
  subject: string,
  count: number,
): Promise<ParsedMail[]> {
  const matching = () => t.mailbox.to(to).filter((m) => m.subject?.includes(subject));
  if (count > 0) await t.mailbox.waitFor(to, () => matching().length >= count);
  await new Promise((r) => setTimeout(r, 300));
  return matching();
}

describe('security notifications over HTTP, with a real SMTP server', () => {
  let t: AccountsTestApp;
  let users: Users;
  const user = (email: string) => users.create({ name: 'Ada', email, password: PASSWORD });

  beforeAll(async () => {
    t = await accountsApp({ engine: ANY_ENGINE, config: { app: { name: 'Tollgate Test' } } });
    users = t.app.container.make(Users);
  });
  afterAll(() => t?.close());

  it('a new device: no notice on the first sign-in or a known device, one for a new one (even signed in twice at once)', async () => {
    const email = 'devices@example.com';
    await user(email);
    await signIn(t, email, FIREFOX);
    await signIn(t, email, FIREFOX);
    expect(await mailsOf(t, email, 'New sign-in', 0)).toEqual([]);

    await Promise.all([signIn(t, email, PHONE), signIn(t, email, PHONE)]);
    const [mail, ...more] = await mailsOf(t, email, 'New sign-in', 1);
    expect(more).toEqual([]);
    expect(mail!.subject).toBe('New sign-in to your Tollgate Test account');
    expect(mail!.text).toContain(PHONE);
    expect(mail!.text).toContain('http://localhost/forgot-password');
    expect(mail!.html).toContain('href="http://localhost/forgot-password"');
  });

  it('a personal access token, an API key and an OAuth client created over the JSON API: one notice each', async () => {
    const email = 'credentials@example.com';
    await user(email);
    const browser = await signIn(t, email);
    await t.app.container
      .make(Clients)
      .create({ name: 'Personal Access Client', redirect: 'http://localhost', personalAccess: true });
    const pat = await json(browser, '/oauth/personal-access-tokens', { name: 'laptop script', scopes: [] });
    expect(pat.status).toBe(200);
    expect((await json(browser, '/api-keys', { name: 'CI deploys' })).status).toBe(201);
    const client = await json(browser, '/oauth/clients', {
      name: 'My app',
      redirect: 'https://app.example/cb',
    });
    expect(client.status).toBe(201);
    const mails = await mailsOf(t, email, 'A new', 3);
    expect(mails.map((m) => m.subject).sort()).toEqual([
      'A new API key on your Tollgate Test account',
      'A new OAuth client on your Tollgate Test account',
      'A new personal access token on your Tollgate Test account',
    ]);
    expect(mails.find((m) => m.subject?.includes('API key'))!.text).toContain('"CI deploys"');
    expect(mails.find((m) => m.subject?.includes('OAuth client'))!.html).toContain('&quot;My app&quot;');
  });

  it('password changed through a reset link: one notice, naming the browser, with a reset link', async () => {
    const email = 'reset@example.com';
    await user(email);
    const { link } = (await t.app.container.make(PasswordReset).link(email))!;
    const path = link.replace('http://localhost', '');
    const token = new URL(link).searchParams.get('token')!;
    const browser = new Browser(t);
    const page = await browser.get(path, { 'user-agent': FIREFOX });
    const fields = {
      _token: tokenIn(await page.text()),
      token,
      password: 'a new password 1',
      password_confirmation: 'a new password 1',
    };
    const res = await browser.post('/reset-password', fields, { 'user-agent': FIREFOX });
    expect(res.status).toBe(303);
    expect((await browser.post('/reset-password', fields, { 'user-agent': FIREFOX })).status).toBe(410);
    const [mail, ...more] = await mailsOf(t, email, 'password was changed', 1);
    expect(more).toEqual([]);
    expect(mail!.subject).toBe('Your Tollgate Test password was changed');
    expect(mail!.text).toContain('through a reset link');
    expect(mail!.text).toContain(FIREFOX);
    expect(mail!.html).toContain('href="http://localhost/forgot-password"');
  });

  it('"sign out other sessions": one notice, naming the browser and how many ended, with a link to the account page', async () => {
    const email = 'sessions@example.com';
    await user(email);
    const laptop = await signIn(t, email, FIREFOX);
    await signIn(t, email, PHONE);
    await signIn(t, email, PHONE);
    const page = await (await laptop.get('/account')).text();
    const res = await laptop.post(
      '/account/sessions/others',
      { _token: tokenIn(page) },
      { 'user-agent': FIREFOX },
    );
    expect(res.status).toBe(303);
    const [mail, ...more] = await mailsOf(t, email, 'signed out', 1);
    expect(more).toEqual([]);
    expect(mail!.subject).toBe('Your other Tollgate Test sessions were signed out');
    expect(mail!.text).toContain('(2 sessions)');
    expect(mail!.text).toContain(FIREFOX);
    expect(mail!.html).toContain('href="http://localhost/account"');
  });

  it('e-mail changed: the notice goes to the old address', async () => {
    const ada = await user('old@example.com');
    await users.update(ada, { email: 'new@example.com' });
    const at = t.clock.now();
    await t.app.events.dispatch(new EmailChanged(ada, 'old@example.com', { ip: '203.0.113.7' }, at));
    await t.app.events.dispatch(new EmailChanged(ada, 'old@example.com', { ip: '203.0.113.7' }, at));
    const [mail, ...more] = await mailsOf(t, 'old@example.com', 'e-mail address was changed', 1);
    expect(more).toEqual([]);
    expect(mail!.text).toContain('changed to new@example.com');
    expect(mail!.text).toContain('from 203.0.113.7');
    expect(t.mailbox.to('new@example.com')).toEqual([]);
  });

  it('a money event, switched on: its mail goes (what the switch below stops)', async () => {
    const payer = await user('payer@example.com');
    await t.app.events.dispatch(new PaymentFailed(payer.id, 'in_1', 'sub_1'));
    expect(await mailsOf(t, 'payer@example.com', 'payment failed', 1)).toHaveLength(1);
  });

  it('every security kind is listed, and each one is registered (the sign-in methods ones by signinProvider())', () => {
    const notifications = t.app.container.make(Notifications);
    const ofSignIn = ['sign-in-method-added', 'sign-in-method-removed'];
    for (const kind of SECURITY_NOTIFICATIONS.filter((k) => !ofSignIn.includes(k)))
      expect(notifications.enabled(kind)).toBe(true);
  });
});

describe('security notifications turned off by the operator', () => {
  let t: AccountsTestApp;

  beforeAll(async () => {
    t = await accountsApp({
      engine: ANY_ENGINE,
      config: { accounts: { notifications: { off: [...NOTIFICATION_KINDS] } } },
    });
  });
  afterAll(() => t?.close());

  it('sends none of them, nor the money notices', async () => {
    const email = 'quiet@example.com';
    const quiet = await t.app.container.make(Users).create({ name: 'Q', email, password: PASSWORD });
    const events = [
      new PaymentFailed(quiet.id, 'in_1', 'sub_1'),
      new InvoicePaid(quiet.id, 'in_1', 'sub_1'),
      new TrialWillEnd(quiet.id, 'sub_1', 'basic', '2026-12-01T00:00:00.000Z'),
      new SubscriptionCancelled(quiet.id, 'sub_1', 'basic', '2026-12-01T00:00:00.000Z', 'user'),
    ];
    for (const event of events) await t.app.events.dispatch(event);
    await signIn(t, email, FIREFOX);
    const browser = await signIn(t, email, PHONE);
    expect((await json(browser, '/api-keys', { name: 'CI' })).status).toBe(201);
    // A mail that is not a notice still goes: the mailbox is reached.
    const forgot = new Browser(t);
    await forgot.post('/forgot-password', { _token: await forgot.csrfToken('/forgot-password'), email });
    await t.mailbox.waitFor(email, (m) => m.subject?.includes('Reset') ?? false);
    await new Promise((r) => setTimeout(r, 300));
    expect(t.mailbox.to(email).map((m) => m.subject)).toEqual(['Reset your Tollgate password']);
  });
});
