import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REGISTRATION_MAILED } from '../../src/accounts/registration/taken-email-notice.js';
import { Users } from '../../src/auth/users.js';
import { Browser, tokenIn } from '../auth/browser.js';
import { ENGINES } from '../support/engines.js';
import { type AccountsTestApp, accountsApp } from './support.js';

const PASSWORD = 'correct horse battery';
const verifyLink = (text: string) => /http:\/\/localhost(\/email\/verification\?token=([\w-]+))/.exec(text);

describe.each(ENGINES)(
  'registration as JSON: the same answer for new and taken addresses, field errors otherwise (%s)',
  (engine) => {
    let t: AccountsTestApp;

    /** A same-origin frontend: the session and its CSRF token come from the register page. */
    const postJson = async (browser: Browser, body: string, headers: Record<string, string> = {}) => {
      const csrf = tokenIn(await (await browser.get('/register')).text());
      return browser.request('/register', {
        method: 'POST',
        headers: {
          accept: 'application/json',
          'content-type': 'application/json',
          origin: 'http://localhost',
          'x-csrf-token': csrf,
          ...headers,
        },
        body,
      });
    };
    const register = (browser: Browser, email: string) =>
      postJson(
        browser,
        JSON.stringify({ name: 'Mallory', email, password: PASSWORD, password_confirmation: PASSWORD }),
      );
    const userCount = async () => {
      const { db } = t.app;
      return (await db.selectFrom('users').select(db.fn.countAll().as('n')).executeTakeFirstOrThrow()).n;
    };

    beforeAll(async () => {
      t = await accountsApp({ engine });
      await t.app.container.make(Users).create({ name: 'Ada', email: 'ada@example.com', password: PASSWORD });
    });
    afterAll(() => t?.close());

    it('answers 202 with one body for a new and a taken address; the new one is mailed a sign-in link, the taken one a note', async () => {
      const browser = new Browser(t);
      const fresh = await register(browser, 'new@example.com');
      const taken = await register(new Browser(t), 'ada@example.com');
      expect(fresh.status).toBe(202);
      expect(fresh.headers.get('content-type')).toContain('application/json');
      const body = await fresh.text();
      expect(JSON.parse(body)).toEqual({ message: REGISTRATION_MAILED });
      expect([taken.status, await taken.text()]).toEqual([202, body]);

      const mail = await t.mailbox.waitFor('new@example.com');
      const [, path, token] = verifyLink(mail.text ?? '')!;
      const confirm = await browser.get(path!);
      const signedIn = await browser.post('/email/verification', {
        _token: tokenIn(await confirm.text()),
        token: token!,
      });
      expect(signedIn.status).toBe(303);
      expect((await browser.get('/dashboard')).status).toBe(200);

      const note = await t.mailbox.waitFor('ada@example.com');
      expect(note.subject).toBe('Someone tried to register with your address at Tollgate');
      expect(await t.app.container.make(Users).findByEmail('ada@example.com')).toMatchObject({ name: 'Ada' });
    });

    it('answers a form sent with Accept: application/json the same way', async () => {
      const browser = new Browser(t);
      const res = await browser.post(
        '/register',
        {
          _token: await browser.csrfToken('/register'),
          name: 'Grace',
          email: 'grace@example.com',
          password: PASSWORD,
          password_confirmation: PASSWORD,
        },
        { accept: 'application/json' },
      );
      expect(res.status).toBe(202);
      expect(await res.json()).toEqual({ message: REGISTRATION_MAILED });
      expect(await t.app.container.make(Users).findByEmail('grace@example.com')).toMatchObject({
        name: 'Grace',
      });
    });

    it('answers bad input with 422 and the field errors, and creates no one', async () => {
      const before = await userCount();
      const res = await postJson(
        new Browser(t),
        JSON.stringify({
          name: '',
          email: 'not-an-address',
          password: 'short',
          password_confirmation: 'other',
        }),
      );
      expect(res.status).toBe(422);
      const body = (await res.json()) as { message: string; errors: Record<string, string[]> };
      expect(body.message).toBe('The name field is required.');
      expect(body.errors).toEqual({
        name: ['The name field is required.'],
        email: ['The email field must be a valid email address.'],
        password: [
          'The password field must be at least 8 characters.',
          'The password field confirmation does not match.',
        ],
      });

      const notJson = await postJson(new Browser(t), '{"name": ');
      expect(notJson.status).toBe(422);
      expect(await notJson.json()).toMatchObject({
        errors: { body: ['The request body must be valid JSON.'] },
      });

      const array = await postJson(new Browser(t), '[]');
      expect(array.status).toBe(422);
      expect((await array.json()) as object).toHaveProperty('errors.email');
      expect(await userCount()).toEqual(before);
    });

    it('refuses a JSON sign-up without the session CSRF token (419) and creates no one', async () => {
      const res = await postJson(
        new Browser(t),
        JSON.stringify({
          name: 'Eve',
          email: 'eve@example.com',
          password: PASSWORD,
          password_confirmation: PASSWORD,
        }),
        { 'x-csrf-token': 'forged' },
      );
      expect(res.status).toBe(419);
      expect(await res.json()).toEqual({ message: 'CSRF token mismatch.' });
      expect(await t.app.container.make(Users).findByEmail('eve@example.com')).toBeUndefined();
    });
  },
);
