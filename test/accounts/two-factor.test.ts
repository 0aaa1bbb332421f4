import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { codeAt } from '../../src/accounts/two-factor/totp.js';
import { EmailVerification, verifiedAt } from '../../src/accounts/verification/email-verification.js';
import { Users } from '../../src/auth/users.js';
import { createLogger } from '../../src/core/logger.js';
import { Browser, tokenIn } from '../auth/browser.js';
import { ENGINES } from '../support/engines.js';
import { type AccountsTestApp, accountsApp } from './support.js';

const PASSWORD = 'correct horse battery';
const STEP_MS = 30_000;

describe.each(ENGINES)(
  'two-factor authentication (authenticator app, recovery codes) over HTTP (%s)',
  (engine) => {
    let t: AccountsTestApp;
    /** Everything the app logged (at debug), and every secret the suite saw, to compare. */
    const logged: string[] = [];
    const secrets: string[] = [];

    const signIn = async (email: string) => {
      const browser = new Browser(t);
      const res = await browser.submit('/login', { email, password: PASSWORD });
      return { browser, res };
    };
    /** Posts a form of `page` with the page's CSRF token. */
    const post = async (browser: Browser, page: string, path: string, fields: Record<string, string> = {}) =>
      browser.post(path, { _token: tokenIn(await (await browser.get(page)).text()), ...fields });
    const signedIn = async (browser: Browser) => (await browser.get('/account')).status === 200;
    const seedIn = (html: string) => /<code id="totp-key">([^<]+)<\/code>/.exec(html)![1]!.replace(/ /g, '');
    const codesIn = (html: string) =>
      [...html.matchAll(/<li><code>([a-z0-9-]+)<\/code><\/li>/g)].map((m) => m[1]!);
    const nextStep = () => t.clock.advance(STEP_MS);

    /** Signs `email` in, enrols the app, and returns the seed and the recovery codes. */
    const enrol = async (email: string) => {
      const { browser } = await signIn(email);
      expect((await post(browser, '/account', '/account/two-factor')).status).toBe(303);
      const setup = await browser.get('/account/two-factor/setup');
      expect(setup.headers.get('cache-control')).toBe('no-store');
      const seed = seedIn(await setup.text());
      const done = await post(browser, '/account/two-factor/setup', '/account/two-factor/confirm', {
        code: codeAt(seed, t.clock.now()),
      });
      expect(done.status).toBe(200);
      const codes = codesIn(await done.text());
      secrets.push(seed, ...codes);
      nextStep();
      return { browser, seed, codes };
    };
    /** Password, then the code: the response of the second step. */
    const twoSteps = async (email: string, code: string) => {
      const { browser, res } = await signIn(email);
      expect(res.status).toBe(302);
      expect(res.headers.get('location')).toBe('/login/two-factor');
      return { browser, res: await post(browser, '/login/two-factor', '/login/two-factor', { code }) };
    };

    beforeAll(async () => {
      t = await accountsApp({
        engine,
        logger: createLogger('debug', { write: (line: string) => void logged.push(line) }),
        config: { accounts: { twoFactor: { throttle: { points: 4, durationSeconds: 60 }, lockAfter: 3 } } },
      });
      const users = t.app.container.make(Users);
      for (const name of ['ada', 'bob', 'cy', 'dee', 'eve', 'fay', 'gus', 'hal', 'ivy'])
        await users.create({ name, email: `${name}@example.com`, password: PASSWORD });
    });
    afterAll(() => t?.close());

    it('enrols with a confirm step: a wrong code keeps it off, the right one turns it on and shows 10 codes once', async () => {
      const { browser } = await signIn('ada@example.com');
      const account = await (await browser.get('/account')).text();
      expect(account).toContain('Set up an authenticator app');
      await post(browser, '/account', '/account/two-factor');
      const setup = await (await browser.get('/account/two-factor/setup')).text();
      expect(setup).toContain('src="data:image/svg+xml;base64,');
      const seed = seedIn(setup);
      expect(seed).toMatch(/^[A-Z2-7]{32}$/);

      const wrong = await post(browser, '/account/two-factor/setup', '/account/two-factor/confirm', {
        code: '000000',
      });
      expect(wrong.status).toBe(422);
      expect(await wrong.text()).toContain('This code is not the one the app shows.');
      expect(await (await browser.get('/account')).text()).toContain(
        'Continue setting up the authenticator app',
      );

      const done = await post(browser, '/account/two-factor/setup', '/account/two-factor/confirm', {
        code: codeAt(seed, t.clock.now()),
      });
      expect(done.status).toBe(200);
      expect(done.headers.get('cache-control')).toBe('no-store');
      const codes = codesIn(await done.text());
      expect(codes).toHaveLength(10);
      expect(new Set(codes).size).toBe(10);
      for (const code of codes) expect(code).toMatch(/^[a-z2-9]{4}(-[a-z2-9]{4}){3}$/);
      const page = await (await browser.get('/account')).text();
      expect(page).toContain('10 unused recovery codes left.');
      for (const code of codes) expect(page).not.toContain(code);
      // Shown once: the setup page is gone.
      expect((await browser.get('/account/two-factor/setup')).status).toBe(303);

      const mail = await t.mailbox.waitFor('ada@example.com', (m) =>
        /two-factor authentication is on/.test(m.subject ?? ''),
      );
      expect(mail.text).toContain('was turned on');

      // Nothing secret in plain text in the database.
      const user = (await t.app.container.make(Users).findByEmail('ada@example.com'))!;
      const row = await t.app.db
        .selectFrom('account_two_factor')
        .selectAll()
        .where('user_id', '=', user.id)
        .executeTakeFirstOrThrow();
      expect(row.sealed_secret).not.toContain(seed);
      const stored = await t.app.db
        .selectFrom('account_recovery_codes')
        .select('code_hash')
        .where('user_id', '=', user.id)
        .execute();
      expect(stored).toHaveLength(10);
      for (const { code_hash } of stored)
        for (const code of codes) expect(code_hash).not.toContain(code.replace(/-/g, ''));
    });

    it('asks for the code after the password; a code is accepted once', async () => {
      const { seed } = await enrol('bob@example.com');
      const { browser: pending } = await signIn('bob@example.com');
      // The password alone signs nobody in.
      expect(await signedIn(pending)).toBe(false);
      const code = codeAt(seed, t.clock.now());
      const first = await post(pending, '/login/two-factor', '/login/two-factor', { code });
      expect(first.status).toBe(302);
      expect(first.headers.get('location')).toBe('/dashboard');
      expect(await signedIn(pending)).toBe(true);

      // The same code again, from another browser within its window: refused.
      const replay = await twoSteps('bob@example.com', code);
      expect(replay.res.status).toBe(422);
      expect(await replay.res.text()).toContain('This code was already used.');
      expect(await signedIn(replay.browser)).toBe(false);
      // The next step's code works.
      nextStep();
      const next = await post(replay.browser, '/login/two-factor', '/login/two-factor', {
        code: codeAt(seed, t.clock.now()),
      });
      expect(next.status).toBe(302);
    });

    it('of two sign-ins sending the same code at once, exactly one gets in', async () => {
      const { seed } = await enrol('ivy@example.com');
      const browsers = await Promise.all([signIn('ivy@example.com'), signIn('ivy@example.com')]);
      const tokens = await Promise.all(
        browsers.map(async ({ browser }) => tokenIn(await (await browser.get('/login/two-factor')).text())),
      );
      const code = codeAt(seed, t.clock.now());
      const answers = await Promise.all(
        browsers.map(({ browser }, i) => browser.post('/login/two-factor', { _token: tokens[i]!, code })),
      );
      expect(answers.map((r) => r.status).sort()).toEqual([302, 422]);
    });

    it('the new-device notice says the sign-in gave a code', async () => {
      const { codes } = await enrol('gus@example.com');
      const phone = new (class extends Browser {
        override request(path: string, init: RequestInit = {}) {
          const headers = new Headers(init.headers);
          headers.set('user-agent', 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) Mobile/15E148');
          return super.request(path, { ...init, headers });
        }
      })(t);
      expect((await phone.submit('/login', { email: 'gus@example.com', password: PASSWORD })).status).toBe(
        302,
      );
      expect((await post(phone, '/login/two-factor', '/login/two-factor', { code: codes[0]! })).status).toBe(
        302,
      );
      const mail = await t.mailbox.waitFor('gus@example.com', (m) => /New sign-in/.test(m.subject ?? ''));
      expect(mail.text).toContain('signed in to with the password and a one-time code from a device');
    });

    it('a verification link does not sign in a user who has the app: the login asks for the code', async () => {
      await enrol('hal@example.com');
      const user = (await t.app.container.make(Users).findByEmail('hal@example.com'))!;
      await t.app.container.make(EmailVerification).send(user);
      const mail = await t.mailbox.waitFor('hal@example.com', (m) =>
        /verification\?token=/.test(m.text ?? ''),
      );
      const token = /verification\?token=([\w-]+)/.exec(mail.text!)![1]!;
      const visitor = new Browser(t);
      const page = await visitor.get(`/email/verification?token=${token}`);
      const res = await visitor.post('/email/verification', { _token: tokenIn(await page.text()), token });
      expect(res.status).toBe(303);
      expect(res.headers.get('location')).toBe('/login');
      expect(await signedIn(visitor)).toBe(false);
      expect(verifiedAt((await t.app.container.make(Users).findByEmail('hal@example.com'))!)).toBeTruthy();
    });

    it('takes each recovery code once, and of two parallel uses of one code exactly one wins', async () => {
      const { codes } = await enrol('cy@example.com');
      const first = await twoSteps('cy@example.com', codes[0]!.toUpperCase());
      expect(first.res.status).toBe(302);
      const again = await twoSteps('cy@example.com', codes[0]!);
      expect(again.res.status).toBe(422);
      expect(await again.res.text()).toContain('This code is not valid.');

      const [a, b] = await Promise.all([signIn('cy@example.com'), signIn('cy@example.com')]);
      const tokens = await Promise.all(
        [a, b].map(async ({ browser }) => tokenIn(await (await browser.get('/login/two-factor')).text())),
      );
      const answers = await Promise.all(
        [a, b].map(({ browser }, i) =>
          browser.post('/login/two-factor', { _token: tokens[i]!, code: codes[1]! }),
        ),
      );
      expect(answers.map((r) => r.status).sort()).toEqual([302, 422]);
    });

    it('throttles wrong codes, then locks the factor and mails a notice', async () => {
      const { seed } = await enrol('dee@example.com');
      const { browser } = await signIn('dee@example.com');
      const statuses: number[] = [];
      for (let i = 0; i < 3; i++)
        statuses.push(
          (await post(browser, '/login/two-factor', '/login/two-factor', { code: '123456' })).status,
        );
      expect(statuses).toEqual([422, 422, 422]);
      // Locked now: even the right code is not taken.
      const locked = await post(browser, '/login/two-factor', '/login/two-factor', {
        code: codeAt(seed, t.clock.now()),
      });
      expect(locked.status).toBe(423);
      expect(await locked.text()).toContain('two-factor sign-in is locked until');
      // And the fifth code in the minute is not even looked at.
      const throttled = await post(browser, '/login/two-factor', '/login/two-factor', { code: '123456' });
      expect(throttled.status).toBe(429);
      expect(throttled.headers.get('retry-after')).toMatch(/^\d+$/);
      expect(await signedIn(browser)).toBe(false);
      const mail = await t.mailbox.waitFor('dee@example.com', (m) => /locked/.test(m.subject ?? ''));
      expect(mail.text).toContain('too many wrong two-factor codes');
    });

    it('turning it off and new recovery codes need a sign-in of the last minutes', async () => {
      const { browser, codes } = await enrol('eve@example.com');
      t.clock.advance(11 * 60_000);
      const stale = await post(browser, '/account', '/account/two-factor/disable');
      expect(stale.status).toBe(302);
      expect(stale.headers.get('location')).toBe('/login');
      const json = await browser.post(
        '/account/two-factor/recovery-codes',
        { _token: tokenIn(await (await browser.get('/account')).text()) },
        { accept: 'application/json' },
      );
      expect(json.status).toBe(423);
      expect(await json.json()).toEqual({ message: 'Please sign in again to continue.' });

      // Sign in again (password and a recovery code) in the same browser: the login page lets it through.
      const again = await browser.submit('/login', { email: 'eve@example.com', password: PASSWORD });
      expect(again.headers.get('location')).toBe('/login/two-factor');
      const second = await post(browser, '/login/two-factor', '/login/two-factor', { code: codes[0]! });
      expect(second.status).toBe(302);

      const fresh = await post(browser, '/account', '/account/two-factor/recovery-codes');
      expect(fresh.status).toBe(200);
      const newCodes = codesIn(await fresh.text());
      expect(newCodes).toHaveLength(10);
      expect(newCodes).not.toContain(codes[1]);
      await t.mailbox.waitFor('eve@example.com', (m) => /new recovery codes/.test(m.subject ?? ''));
      // The old codes are void, the new ones work.
      expect((await twoSteps('eve@example.com', codes[1]!)).res.status).toBe(422);
      expect((await twoSteps('eve@example.com', newCodes[0]!)).res.status).toBe(302);

      const off = await post(browser, '/account', '/account/two-factor/disable');
      expect(off.status).toBe(303);
      await t.mailbox.waitFor('eve@example.com', (m) => /turned off/.test(m.subject ?? ''));
      const { res } = await signIn('eve@example.com');
      expect(res.headers.get('location')).toBe('/dashboard');
    });

    it('forgets a password that waited too long for its code', async () => {
      const { seed } = await enrol('fay@example.com');
      const { browser } = await signIn('fay@example.com');
      t.clock.advance(6 * 60_000);
      expect((await browser.get('/login/two-factor')).headers.get('location')).toBe('/login');
      const late = await post(browser, '/login', '/login/two-factor', { code: codeAt(seed, t.clock.now()) });
      expect(late.status).toBe(302);
      expect(late.headers.get('location')).toBe('/login');
      expect(await signedIn(browser)).toBe(false);
    });

    it('logs no seed and no recovery code', () => {
      expect(secrets.length).toBeGreaterThan(20);
      const log = logged.join('');
      expect(log.length).toBeGreaterThan(0);
      for (const secret of secrets) expect(log).not.toContain(secret);
    });
  },
);
