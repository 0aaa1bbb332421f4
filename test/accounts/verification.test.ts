import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { currentUser } from '../../src/auth/context.js';
import { Users } from '../../src/auth/users.js';
import { Browser, tokenIn } from '../auth/browser.js';
import type { TestApp } from '../support/app.js';
import { ENGINES } from '../support/engines.js';
import type { Mailbox } from '../support/mailbox.js';
import { type AccountsTestApp, accountsApp } from './support.js';

const PASSWORD = 'correct horse battery';
const linkIn = (text: string) => /http:\/\/localhost\/email\/verification\?token=[\w-]+/.exec(text)?.[0];
const path = (link: string) => link.replace('http://localhost', '');

async function register(t: TestApp, email: string): Promise<Browser> {
  const browser = new Browser(t);
  const res = await browser.submit('/register', {
    name: email.split('@')[0]!,
    email,
    password: PASSWORD,
    password_confirmation: PASSWORD,
  });
  expect(res.status).toBe(302);
  return browser;
}

/** Opens a mailed link and presses its button: the GET only shows the page, the POST verifies. */
async function confirm(browser: Browser, link: string): Promise<Response> {
  const page = await browser.get(path(link));
  expect(page.status).toBe(200);
  const token = new URL(link).searchParams.get('token')!;
  return browser.post('/email/verification', { _token: tokenIn(await page.text()), token });
}

async function signIn(t: TestApp, email: string): Promise<Browser> {
  const browser = new Browser(t);
  expect((await browser.submit('/login', { email, password: PASSWORD })).status).toBe(302);
  return browser;
}

describe.each(ENGINES)('e-mail verification over HTTP, with a real SMTP server (%s)', (engine) => {
  let mailbox: Mailbox;
  let t: AccountsTestApp;

  const verificationLink = async (email: string, nth = 0) => {
    await mailbox.waitFor(email, () => mailbox.to(email).length > nth);
    const mail = mailbox.to(email)[nth]!;
    const link = linkIn(mail.text ?? '');
    expect(link, mail.text).toBeDefined();
    expect(mail.html).toContain(`href="${link}"`);
    return link!;
  };
  const verifiedAt = async (email: string) =>
    (
      await t.app.db
        .selectFrom('users')
        .select('email_verified_at')
        .where('email', '=', email)
        .executeTakeFirst()
    )?.email_verified_at;

  beforeAll(async () => {
    t = await accountsApp({
      engine,
      setup: (app) => {
        app.router
          .get('/members', (c) => c.text(`hello ${currentUser(c)?.email}`))
          .middleware('web', 'auth', 'verified');
      },
    });
    mailbox = t.mailbox;
  });
  afterAll(() => t?.close());

  it('registration mails a link; it verifies the address, signs the new user in, and works once', async () => {
    const browser = await register(t, 'new@example.com');
    const link = await verificationLink('new@example.com');
    expect(await verifiedAt('new@example.com')).toBeNull();

    // Signed in but unverified: `verified` sends pages to the notice and JSON to a 403.
    const member = await signIn(t, 'new@example.com');
    expect((await member.get('/members')).headers.get('location')).toBe('/email/verify');
    const json = await member.get('/members', { accept: 'application/json' });
    expect(json.status).toBe(403);
    expect(await json.json()).toEqual({ message: 'Your e-mail address is not verified.' });
    expect(await (await member.get('/email/verify')).text()).toContain('We sent a link to');

    // A mail scanner fetches the link first: that shows the button and uses nothing up.
    for (let i = 0; i < 2; i++) {
      const scanned = await new Browser(t).get(path(link));
      expect(scanned.status).toBe(200);
      expect(await scanned.text()).toContain('Verify e-mail address</button>');
    }
    expect(await verifiedAt('new@example.com')).toBeNull();

    // The link, from the mail, in the browser that registered (not signed in).
    const opened = await confirm(browser, link);
    expect(opened.status).toBe(303);
    expect(opened.headers.get('location')).toBe('/dashboard');
    expect(await verifiedAt('new@example.com')).toBe(t.clock.now().toISOString());
    expect(await (await browser.get('/members')).text()).toBe('hello new@example.com');
    expect((await member.get('/members')).status).toBe(200);

    const again = await new Browser(t).get(path(link));
    expect(again.status).toBe(410);
    expect(await again.text()).toContain('This verification link was already used.');
    const reposted = await browser.post('/email/verification', {
      _token: await browser.csrfToken('/dashboard'),
      token: new URL(link).searchParams.get('token')!,
    });
    expect(reposted.status).toBe(410);
  });

  it('a link opened twice at once (a double click) signs in once; the other answers 410', async () => {
    await register(t, 'twice@example.com');
    const link = await verificationLink('twice@example.com');
    const [a, b] = [new Browser(t), new Browser(t)];
    const token = new URL(link).searchParams.get('token')!;
    const forms = await Promise.all([a, b].map(async (x) => tokenIn(await (await x.get(path(link))).text())));
    const opened = await Promise.all(
      [a, b].map((x, i) => x.post('/email/verification', { _token: forms[i]!, token })),
    );
    expect(opened.map((res) => res.status).sort()).toEqual([303, 410]);
    expect(await verifiedAt('twice@example.com')).not.toBeNull();
  });

  it('refuses tampered, expired and other-account links with a clear 4xx, using none of them up', async () => {
    await register(t, 'late@example.com');
    const link = await verificationLink('late@example.com');

    const tampered = await new Browser(t).get(path(link).replace(/.$/, (ch) => (ch === 'A' ? 'B' : 'A')));
    expect(tampered.status).toBe(403);
    expect(await tampered.text()).toContain('This verification link is not valid.');
    const junk = await new Browser(t).get('/email/verification?token=%00%27', { accept: 'application/json' });
    expect(junk.status).toBe(403);
    expect(await junk.json()).toEqual({ message: 'This verification link is not valid. Ask for a new one.' });

    await register(t, 'other@example.com');
    const other = await signIn(t, 'other@example.com');
    const foreign = await other.get(path(link));
    expect(foreign.status).toBe(403);
    expect(await foreign.text()).toContain('This verification link is for another account.');
    const posted = await other.post('/email/verification', {
      _token: await other.csrfToken('/email/verify'),
      token: new URL(link).searchParams.get('token')!,
    });
    expect(posted.status).toBe(403);
    expect(await verifiedAt('late@example.com')).toBeNull();

    t.clock.advance(24 * 3_600_000 + 1_000);
    const expired = await new Browser(t).get(path(link));
    expect(expired.status).toBe(410);
    expect(await expired.text()).toContain('This verification link has expired.');
    expect(await verifiedAt('late@example.com')).toBeNull();
  });

  it('resends on request, a few times an hour at most', async () => {
    await register(t, 'again@example.com');
    await verificationLink('again@example.com');
    const member = await signIn(t, 'again@example.com');
    for (let i = 1; i <= 3; i++) {
      const sent = await member.post('/email/verification-notification', {
        _token: await member.csrfToken('/email/verify'),
      });
      expect(sent.status).toBe(303);
    }
    const refused = await member.post('/email/verification-notification', {
      _token: await member.csrfToken('/email/verify'),
    });
    expect(refused.status).toBe(429);
    const latest = await verificationLink('again@example.com', 3);
    // Any unused link works; the newest one verifies.
    expect((await confirm(member, latest)).status).toBe(303);
    expect(await verifiedAt('again@example.com')).not.toBeNull();
    await new Promise((r) => setTimeout(r, 300));
    expect(mailbox.to('again@example.com')).toHaveLength(4);
  });

  it('a registration with a taken address sends no verification link', async () => {
    const users = t.app.container.make(Users);
    await users.create({ name: 'Taken', email: 'taken@example.com', password: PASSWORD });
    await register(t, 'taken@example.com');
    await new Promise((r) => setTimeout(r, 500));
    expect(mailbox.to('taken@example.com').filter((m) => linkIn(m.text ?? ''))).toEqual([]);
  });
});

describe.each(ENGINES)('accounts.verification.required (%s)', (engine) => {
  it('keeps unverified users from approving OAuth clients', async () => {
    const t = await accountsApp({ engine, config: { accounts: { verification: { required: true } } } });
    try {
      await t.app.container.make(Users).create({ name: 'U', email: 'u@example.com', password: PASSWORD });
      const member = await signIn(t, 'u@example.com');
      const token = await member.csrfToken('/email/verify');
      const refused = await member.post('/oauth/authorize', { _token: token, auth_token: 'x' });
      expect(refused.status).toBe(302);
      expect(refused.headers.get('location')).toBe('/email/verify');
      const device = await member.post(
        '/oauth/device/authorize',
        { _token: token },
        { accept: 'application/json' },
      );
      expect(device.status).toBe(403);

      await t.app.db.updateTable('users').set({ email_verified_at: t.clock.now().toISOString() }).execute();
      // Past the check: the approval itself now answers (no pending request in this session).
      const approved = await member.post('/oauth/authorize', { _token: token, auth_token: 'x' });
      expect(approved.headers.get('location')).not.toBe('/email/verify');
    } finally {
      await t.close();
    }
  });
});
