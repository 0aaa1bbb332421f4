import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REGISTRATION_MAILED } from '../../src/accounts/registration/taken-email-notice.js';
import { Users } from '../../src/auth/users.js';
import { Browser, tokenIn } from '../auth/browser.js';
import { ANY_ENGINE } from '../support/engines.js';
import { type AccountsTestApp, accountsApp } from './support.js';

const PASSWORD = 'correct horse battery';
const verifyLink = (text: string) => /http:\/\/localhost(\/email\/verification\?token=([\w-]+))/.exec(text);

describe('sign-up without retyping, and without telling which addresses have an account', () => {
  let t: AccountsTestApp;

  const register = async (email: string, browser = new Browser(t)) => {
    const res = await browser.submit('/register', {
      name: 'Mallory',
      email,
      password: PASSWORD,
      password_confirmation: PASSWORD,
    });
    const page = await browser.get(res.headers.get('location') ?? '/');
    return { status: res.status, location: res.headers.get('location'), page: await page.text() };
  };

  beforeAll(async () => {
    t = await accountsApp({ engine: ANY_ENGINE });
    await t.app.container.make(Users).create({ name: 'Ada', email: 'ada@example.com', password: PASSWORD });
  });
  afterAll(() => t?.close());

  it('a new and a taken address get the same answer; the new one a link that signs in, the taken one a note', async () => {
    const browser = new Browser(t);
    const fresh = await register('new@example.com', browser);
    const taken = await register('ada@example.com');
    expect(fresh.status).toBe(302);
    expect(fresh.location).toBe('/login');
    expect([taken.status, taken.location]).toEqual([fresh.status, fresh.location]);
    for (const { page } of [fresh, taken]) expect(page).toContain(REGISTRATION_MAILED);

    // The new address: one click (and one confirm, see the scanner rule) signs the new user in.
    const mail = await t.mailbox.waitFor('new@example.com');
    const [, path, token] = verifyLink(mail.text ?? '')!;
    const confirm = await browser.get(path!);
    const signedIn = await browser.post('/email/verification', {
      _token: tokenIn(await confirm.text()),
      token: token!,
    });
    expect(signedIn.status).toBe(303);
    expect((await browser.get('/dashboard')).status).toBe(200);

    // The taken address: a note with a sign-in and a reset link, and no credential in it.
    const note = await t.mailbox.waitFor('ada@example.com');
    expect(note.subject).toBe('Someone tried to register with your address at Tollgate');
    expect(note.text).toContain('Hello Ada');
    expect(note.text).toContain('http://localhost/login');
    expect(note.text).toContain('http://localhost/forgot-password');
    expect(note.html).toContain('href="http://localhost/login"');
    expect(note.text).not.toMatch(/token=/);
    expect(note.text).not.toContain('Mallory');
    expect(await t.app.container.make(Users).findByEmail('ada@example.com')).toMatchObject({ name: 'Ada' });
  });

  it('mails the owner of a taken address at most 3 times an hour', async () => {
    await t.app.container.make(Users).create({ name: 'Bob', email: 'bob@example.com', password: PASSWORD });
    for (let i = 0; i < 5; i++) expect((await register('bob@example.com')).status).toBe(302);
    await t.mailbox.waitFor('bob@example.com', () => t.mailbox.to('bob@example.com').length >= 3);
    await new Promise((r) => setTimeout(r, 400));
    expect(t.mailbox.to('bob@example.com')).toHaveLength(3);
  });
});
