import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PasswordChanged } from '../../src/accounts/index.js';
import { currentUser } from '../../src/auth/context.js';
import { hashPassword } from '../../src/auth/password.js';
import { Users } from '../../src/auth/users.js';
import { Outbox } from '../../src/mail/outbox.js';
import { Clients } from '../../src/oauth/index.js';
import { Browser } from '../auth/browser.js';
import { ENGINES } from '../support/engines.js';
import type { Mailbox } from '../support/mailbox.js';
import { type AccountsTestApp, accountsApp } from './support.js';

const OLD = 'correct horse battery';
const NEW = 'tr0ub4dor and three';
const linkIn = (text: string) => /http:\/\/localhost\/reset-password\?token=([\w-]+)/.exec(text)?.[1];

describe.each(ENGINES)('password reset over HTTP, with a real SMTP server (%s)', (engine) => {
  let mailbox: Mailbox;
  let t: AccountsTestApp;
  let users: Users;

  const forgot = async (email: string, browser = new Browser(t)) =>
    browser.post('/forgot-password', { _token: await browser.csrfToken('/forgot-password'), email });
  /** The token of the n-th reset mail to `email`. */
  const resetToken = async (email: string, nth = 0) => {
    await mailbox.waitFor(email, () => mailbox.to(email).length > nth);
    const mail = mailbox.to(email)[nth]!;
    expect(mail.html).toContain('/reset-password?token=');
    return linkIn(mail.text ?? '')!;
  };
  const reset = async (token: string, password = NEW, browser = new Browser(t)) =>
    browser.post('/reset-password', {
      _token: await browser.csrfToken(`/reset-password?token=${token}`),
      token,
      password,
      password_confirmation: password,
    });
  const canLogIn = async (email: string, password: string) =>
    (await new Browser(t).submit('/login', { email, password })).status === 302;
  const user = (email: string) => users.create({ name: email.split('@')[0]!, email, password: OLD });

  beforeAll(async () => {
    t = await accountsApp({
      engine,
      config: { accounts: { passwordReset: { answerMs: 0 } } },
      setup: (app) => {
        app.router.get('/private', (c) => c.text(`hello ${currentUser(c)?.email}`)).middleware('web', 'auth');
      },
    });
    mailbox = t.mailbox;
    users = t.app.container.make(Users);
  });
  afterAll(() => t?.close());

  it('answers known and unknown addresses alike, and mails only the known one', async () => {
    await user('known@example.com');
    const login = await new Browser(t).get('/login');
    expect(await login.text()).toContain('<a href="/forgot-password">Forgot your password?</a>');

    const known = await forgot('known@example.com');
    // Queued before the answer: a crash after it loses nothing.
    expect((await t.app.container.make(Outbox).list({ to: 'known@example.com' })).length).toBe(1);
    const unknown = await forgot('nobody@example.com');
    for (const res of [known, unknown]) {
      expect(res.status).toBe(303);
      expect(res.headers.get('location')).toBe('/forgot-password');
    }
    const json = async (email: string) => {
      const b = new Browser(t);
      const res = await b.post(
        '/forgot-password',
        { _token: await b.csrfToken('/forgot-password'), email },
        { accept: 'application/json' },
      );
      return [res.status, await res.json()];
    };
    expect(await json('known@example.com')).toEqual(await json('nobody@example.com'));
    await resetToken('known@example.com');
    await new Promise((r) => setTimeout(r, 300));
    expect(mailbox.to('nobody@example.com')).toEqual([]);

    const bad = await forgot('not an address');
    expect(bad.status).toBe(422);
    expect(await bad.text()).toContain('The email field must be a valid email address.');
  });

  it("sets the new password once, ends every session and the authorized applications' tokens", async () => {
    const ada = await user('ada@example.com');
    const signedIn = new Browser(t);
    await signedIn.submit('/login', { email: 'ada@example.com', password: OLD });
    expect((await signedIn.get('/private')).status).toBe(200);
    // An application Ada authorized, holding a refresh token (password grant).
    const { client, plainSecret } = await t.app.container
      .make(Clients)
      .create({ name: 'App', redirect: 'http://127.0.0.1/cb', password: true });
    const grant = (fields: Record<string, string>) =>
      t.request('/oauth/token', {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ client_id: client.id, client_secret: plainSecret!, ...fields }),
      });
    const issued = await grant({ grant_type: 'password', username: ada.email, password: OLD });
    const { refresh_token } = (await issued.json()) as { refresh_token: string };
    expect(refresh_token).toBeTypeOf('string');

    await forgot('ada@example.com');
    const token = await resetToken('ada@example.com');
    const form = new Browser(t);
    const mismatch = await form.post('/reset-password', {
      _token: await form.csrfToken(`/reset-password?token=${token}`),
      token,
      password: NEW,
      password_confirmation: 'different',
    });
    expect(mismatch.status).toBe(422);
    expect(await mismatch.text()).toContain('The password field confirmation does not match.');

    const done = await reset(token);
    expect(done.status).toBe(303);
    expect(done.headers.get('location')).toBe('/login');
    expect(await canLogIn('ada@example.com', NEW)).toBe(true);
    expect(await canLogIn('ada@example.com', OLD)).toBe(false);
    expect((await signedIn.get('/private')).headers.get('location')).toMatch(/^\/login/);
    expect((await grant({ grant_type: 'refresh_token', refresh_token })).status).toBe(400);

    const reused = await reset(token, 'yet another password');
    expect(reused.status).toBe(410);
    expect(await reused.text()).toContain('This reset link was already used.');
  });

  it('refuses expired and tampered links, and a link issued before the password changed', async () => {
    await user('grace@example.com');
    await forgot('grace@example.com');
    const first = await resetToken('grace@example.com');
    const tampered = await reset(`${first.slice(0, -1)}${first.endsWith('A') ? 'B' : 'A'}`);
    expect(tampered.status).toBe(403);

    // The password changes another way: the link dies.
    const grace = (await users.findByEmail('grace@example.com'))!;
    await users.update(grace, { password: await hashPassword('changed elsewhere 1') });
    const stale = await reset(first);
    expect(stale.status).toBe(403);
    expect(await stale.text()).toContain('This reset link is not valid');

    t.clock.advance(3_600_000); // past the hour of the per-address limit
    await forgot('grace@example.com');
    const second = await resetToken('grace@example.com', 1);
    t.clock.advance(61 * 60_000);
    const expired = await reset(second);
    expect(expired.status).toBe(410);
    expect(await expired.text()).toContain('This reset link has expired.');
    expect(await canLogIn('grace@example.com', 'changed elsewhere 1')).toBe(true);
  });

  it('two resets with one link at once: one wins', async () => {
    await user('twice@example.com');
    await forgot('twice@example.com');
    const token = await resetToken('twice@example.com');
    const changes: PasswordChanged[] = [];
    const stop = t.app.events.listen(PasswordChanged, (event) => void changes.push(event));
    const [a, b] = await Promise.all([reset(token, 'first password 1'), reset(token, 'second password 2')]);
    stop();
    expect([a.status, b.status].sort()).toEqual([303, 410]);
    expect(changes.map((e) => [e.user.email, e.via])).toEqual([['twice@example.com', 'reset']]);
    const winner = a.status === 303 ? 'first password 1' : 'second password 2';
    const loser = a.status === 303 ? 'second password 2' : 'first password 1';
    expect(await canLogIn('twice@example.com', winner)).toBe(true);
    expect(await canLogIn('twice@example.com', loser)).toBe(false);
  });

  it('mails an address at most 3 times an hour, answering the same; 429 per client address after 20', async () => {
    await user('bomb@example.com');
    for (let i = 0; i < 5; i++) expect((await forgot('bomb@example.com')).status).toBe(303);
    await resetToken('bomb@example.com', 2);
    await new Promise((r) => setTimeout(r, 300));
    expect(mailbox.to('bomb@example.com')).toHaveLength(3);
    let last: Response | undefined;
    for (let i = 0; i < 20; i++) last = await forgot(`flood${i}@example.com`);
    expect(last!.status).toBe(429);
  });
});
