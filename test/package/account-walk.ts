import { expect } from 'vitest';
import { Browser, tokenIn } from '../oauth/http-client.js';
import type { Mailbox } from '../support/mailbox.js';

const PASSWORD = 'correct horse battery';
const NEW_PASSWORD = 'tr0ub4dor and three';

/** The first link under `base` to `path` in a mail's text part. */
export function linkIn(text: string | undefined, base: string, path: string): string {
  const link = new RegExp(`${base}${path}\\?token=[\\w-]+`).exec(text ?? '')?.[0];
  expect(link, text).toBeTruthy();
  return link!;
}

/** The link's page, then its form posted back with the token (a GET uses nothing up). */
export async function followLink(
  browser: Browser,
  link: string,
  action: string,
  fields: Record<string, string> = {},
) {
  const page = await browser.get(link);
  expect(page.status, link).toBe(200);
  const token = new URL(link).searchParams.get('token')!;
  return browser.post(action, { _token: tokenIn(await page.text()), token, ...fields });
}

export async function logIn(base: string, email: string, password: string): Promise<Browser> {
  const browser = new Browser(base);
  await browser.login({ email, password });
  return browser;
}

/** Sign-up: the verification link from the mail verifies the address and signs the user in. */
export async function signUpVerified(
  base: string,
  mailbox: Mailbox,
  person: { name: string; email: string; password: string },
): Promise<Browser> {
  const visitor = new Browser(base);
  const form = await visitor.get('/register');
  const registered = await visitor.post('/register', {
    _token: tokenIn(await form.text()),
    ...person,
    password_confirmation: person.password,
  });
  expect([registered.status, registered.headers.get('location')]).toEqual([302, '/login']);
  const verification = await mailbox.waitFor(person.email, (mail) => /verif/i.test(mail.subject ?? ''));
  const verified = await followLink(
    visitor,
    linkIn(verification.text, base, '/email/verification'),
    '/email/verification',
  );
  expect([verified.status, verified.headers.get('location')]).toEqual([303, '/dashboard']);
  return visitor;
}

const accountPage = async (browser: Browser) => browser.get('/account');
const formToken = async (browser: Browser) => tokenIn(await (await accountPage(browser)).text());

/**
 * A person's account, from sign-up through a changed address to its deletion, against a running
 * service with the accounts module and `MAIL_URL` pointing at `mailbox`: every link comes from a
 * received mail.
 */
export async function walkAccountFlows(base: string, mailbox: Mailbox): Promise<void> {
  const email = 'grace@example.com';

  const visitor = await signUpVerified(base, mailbox, { name: 'Grace', email, password: PASSWORD });
  const account = await (await accountPage(visitor)).text();
  expect(account).toContain(`<strong>${email}</strong> (verified)`);

  // Forgot the password: the mailed link sets a new one, ends the sessions, and the new one logs in.
  const forgetful = new Browser(base);
  const forgot = await forgetful.get('/forgot-password');
  const asked = await forgetful.post('/forgot-password', { _token: tokenIn(await forgot.text()), email });
  expect([asked.status, asked.headers.get('location')]).toEqual([303, '/forgot-password']);
  const resetMail = await mailbox.waitFor(email, (mail) =>
    (mail.text ?? '').includes('/reset-password?token='),
  );
  const reset = await followLink(
    forgetful,
    linkIn(resetMail.text, base, '/reset-password'),
    '/reset-password',
    {
      password: NEW_PASSWORD,
      password_confirmation: NEW_PASSWORD,
    },
  );
  expect([reset.status, reset.headers.get('location')]).toEqual([303, '/login']);
  expect((await accountPage(visitor)).status).toBe(302);
  await expect(logIn(base, email, PASSWORD)).rejects.toThrow('login failed: 422');
  const laptop = await logIn(base, email, NEW_PASSWORD);

  // The account page: a second device is listed, then signed out from the first.
  const phone = await logIn(base, email, NEW_PASSWORD);
  const sessions = await (await accountPage(laptop)).text();
  expect(sessions.match(/\(this session\)/g)).toHaveLength(1);
  expect(sessions.match(/<time datetime=/g)?.length).toBeGreaterThanOrEqual(2);
  const ended = await laptop.post('/account/sessions/others', { _token: await formToken(laptop) });
  expect([ended.status, ended.headers.get('location')]).toEqual([303, '/account']);
  expect(await (await accountPage(laptop)).text()).toContain('Signed out 1 other session.');
  expect((await accountPage(phone)).status).toBe(302);

  // A new address: confirmed from the mail sent there, the old address told; it logs in after.
  const newEmail = 'grace.hopper@example.com';
  const change = await laptop.post('/account/email', {
    _token: await formToken(laptop),
    email: newEmail,
    current_password: NEW_PASSWORD,
  });
  expect([change.status, change.headers.get('location')]).toEqual([303, '/account']);
  const confirmation = await mailbox.waitFor(newEmail);
  const confirmed = await followLink(
    laptop,
    linkIn(confirmation.text, base, '/account/email/confirm'),
    '/account/email/confirm',
  );
  expect([confirmed.status, confirmed.headers.get('location')]).toEqual([303, '/account']);
  expect(await (await accountPage(laptop)).text()).toContain(`<strong>${newEmail}</strong> (verified)`);
  await mailbox.waitFor(email, (mail) => /e-mail address was changed/.test(mail.subject ?? ''));
  const current = await logIn(base, newEmail, NEW_PASSWORD);

  // Deleting the account: the password confirms it, the browser is signed out, a last mail goes to
  // the address, and the account no longer signs in.
  const deleted = await current.post('/account/delete', {
    _token: await formToken(current),
    current_password: NEW_PASSWORD,
  });
  expect([deleted.status, deleted.headers.get('location')]).toEqual([303, '/login']);
  await mailbox.waitFor(newEmail, (mail) => /account was deleted/.test(mail.subject ?? ''));
  expect((await accountPage(current)).status).toBe(302);
  await expect(logIn(base, newEmail, NEW_PASSWORD)).rejects.toThrow('login failed: 422');
}
