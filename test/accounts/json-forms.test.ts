import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  EMAIL_TAKEN,
  PASSWORD_CHANGED,
  WRONG_PASSWORD,
} from '../../src/accounts/account/account-controller.js';
import { EMAIL_CHANGED } from '../../src/accounts/account/email-change-controller.js';
import { ACCOUNT_DELETED } from '../../src/accounts/deletion/account-deletion-controller.js';
import {
  PASSWORD_RESET,
  RESET_REQUESTED,
} from '../../src/accounts/password-reset/password-reset-controller.js';
import { LINK_SENT, VERIFIED } from '../../src/accounts/verification/verification-controller.js';
import { Users } from '../../src/auth/users.js';
import { Browser, tokenIn } from '../auth/browser.js';
import { ANY_ENGINE } from '../support/engines.js';
import { type AccountsTestApp, accountsApp } from './support.js';

const PASSWORD = 'correct horse battery';
const NEW = 'tr0ub4dor and three';
const CHROME =
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 Chrome/126.0 Safari/537.36';
const tokenOf = (text: string | undefined, path: string) =>
  new RegExp(`${path.replace('?', '\\?')}\\?token=([\\w-]+)`).exec(text ?? '')?.[1];

describe('the account forms answer a JSON client in JSON, reading a JSON body', () => {
  let t: AccountsTestApp;

  const signIn = async (email: string, password = PASSWORD, agent?: string) => {
    const b = new Browser(t);
    const token = await b.csrfToken('/login');
    const res = await b.post(
      '/login',
      { _token: token, email, password },
      agent ? { 'user-agent': agent } : {},
    );
    expect(res.status).toBe(302);
    return b;
  };
  /** A same-origin frontend's call: the session's CSRF token (from `tokenFrom`) in the header. */
  const json = async (b: Browser, path: string, body?: unknown, tokenFrom = '/account', raw?: string) =>
    b.request(path, {
      method: 'POST',
      headers: {
        accept: 'application/json',
        'content-type': 'application/json',
        origin: 'http://localhost',
        'x-csrf-token': tokenIn(await (await b.get(tokenFrom)).text()),
      },
      body: raw ?? JSON.stringify(body ?? {}),
    });
  const answer = async (res: Response) => {
    expect(res.headers.get('content-type')).toContain('application/json');
    return [res.status, await res.json()];
  };

  beforeAll(async () => {
    t = await accountsApp({ engine: ANY_ENGINE, config: { accounts: { passwordReset: { answerMs: 0 } } } });
    const users = t.app.container.make(Users);
    for (const email of ['ada@example.com', 'bob@example.com', 'cy@example.com', 'dee@example.com'])
      await users.create({ name: email.split('@')[0]!, email, password: PASSWORD });
  });
  afterAll(() => t?.close());

  it('lists the sessions as JSON and signs out the others', async () => {
    const laptop = await signIn('ada@example.com');
    const phone = await signIn('ada@example.com', PASSWORD, CHROME);
    const listed = await laptop.get('/account', { accept: 'application/json' });
    const [status, body] = await answer(listed);
    expect(status).toBe(200);
    expect(body).toMatchObject({ email: 'ada@example.com', email_verified: false });
    expect(body.sessions).toHaveLength(2);
    expect(body.sessions.filter((s: { current: boolean }) => s.current)).toHaveLength(1);
    expect(body.sessions.map((s: { device: string }) => s.device)).toContain('Chrome on macOS');

    expect(await answer(await json(laptop, '/account/sessions/others'))).toEqual([
      200,
      { message: 'Signed out 1 other session.' },
    ]);
    expect((await phone.get('/account')).status).toBe(302);
  });

  it('changes the password from a JSON body; a wrong current password or a body that is not JSON is a JSON 422', async () => {
    const b = await signIn('bob@example.com');
    const change = { current_password: PASSWORD, password: NEW, password_confirmation: NEW };
    expect(
      await answer(await json(b, '/account/password', { ...change, current_password: 'wrong one' })),
    ).toEqual([422, { message: WRONG_PASSWORD, errors: { current_password: [WRONG_PASSWORD] } }]);
    expect(await answer(await json(b, '/account/password', undefined, '/account', '{"password":'))).toEqual([
      422,
      {
        message: 'The request body must be valid JSON.',
        errors: { body: ['The request body must be valid JSON.'] },
      },
    ]);
    expect(await answer(await json(b, '/account/password', change))).toEqual([
      200,
      { message: PASSWORD_CHANGED },
    ]);
    await signIn('bob@example.com', NEW);
  });

  it('changes the e-mail address from JSON bodies: the request, then the mailed token', async () => {
    const b = await signIn('cy@example.com');
    const [taken, refused] = await answer(
      await json(b, '/account/email', { email: 'ada@example.com', current_password: PASSWORD }),
    );
    expect([taken, refused.errors]).toEqual([422, { email: [EMAIL_TAKEN] }]);
    const [asked] = await answer(
      await json(b, '/account/email', { email: 'cy.new@example.com', current_password: PASSWORD }),
    );
    expect(asked).toBe(200);
    const mail = await t.mailbox.waitFor('cy.new@example.com');
    const token = tokenOf(mail.text, '/account/email/confirm');
    expect(await answer(await json(b, '/account/email/confirm', { token }))).toEqual([
      200,
      { message: EMAIL_CHANGED },
    ]);
    expect((await t.app.container.make(Users).findByEmail('cy.new@example.com'))?.name).toBe('cy');
  });

  it('resends and redeems the verification link, and asks for and redeems a reset link, from JSON bodies', async () => {
    const b = await signIn('dee@example.com');
    expect(await answer(await json(b, '/email/verification-notification'))).toEqual([
      202,
      { message: LINK_SENT },
    ]);
    const verification = await t.mailbox.waitFor('dee@example.com', (m) => /verif/i.test(m.subject ?? ''));
    const verifyToken = tokenOf(verification.text, '/email/verification');
    expect(await answer(await json(b, '/email/verification', { token: verifyToken }))).toEqual([
      200,
      { message: VERIFIED },
    ]);

    const visitor = new Browser(t);
    const [malformed, invalid] = await answer(
      await json(visitor, '/forgot-password', { email: 'not an address' }, '/forgot-password'),
    );
    expect([malformed, Object.keys(invalid.errors)]).toEqual([422, ['email']]);
    expect(
      await answer(await json(visitor, '/forgot-password', { email: 'dee@example.com' }, '/forgot-password')),
    ).toEqual([202, { message: RESET_REQUESTED }]);
    const reset = await t.mailbox.waitFor('dee@example.com', (m) =>
      (m.text ?? '').includes('/reset-password'),
    );
    const token = tokenOf(reset.text, '/reset-password');
    expect(
      await answer(
        await json(
          visitor,
          '/reset-password',
          { token, password: NEW, password_confirmation: NEW },
          '/login',
        ),
      ),
    ).toEqual([200, { message: PASSWORD_RESET }]);
    await signIn('dee@example.com', NEW);
  });

  it('deletes the account from a JSON body, and refuses a wrong password with a JSON 422', async () => {
    const b = await signIn('ada@example.com');
    expect(await answer(await json(b, '/account/delete', { current_password: 'wrong one' }))).toEqual([
      422,
      { message: WRONG_PASSWORD, errors: { current_password: [WRONG_PASSWORD] } },
    ]);
    expect(await answer(await json(b, '/account/delete', { current_password: PASSWORD }))).toEqual([
      200,
      { message: ACCOUNT_DELETED },
    ]);
    expect(await t.app.container.make(Users).findByEmail('ada@example.com')).toBeUndefined();
  });
});
