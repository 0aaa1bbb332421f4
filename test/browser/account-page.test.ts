import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Users } from '../../src/auth/users.js';
import { ANY_ENGINE } from '../support/engines.js';
import { type Chromium, launchChromium } from './chromium.js';
import { browserOn, type ReferenceServer, startReferenceServer } from './server.js';

const ADA = { name: 'Ada Lovelace', email: 'ada@example.com', password: 'correct horse battery' };
const NEW_PASSWORD = 'analytical engine 1843';
const NEW_EMAIL = 'countess@example.com';

/**
 * The account page's forms in Chromium with JavaScript turned off (each must work as a plain
 * form): change the password, change the e-mail address through the mailed link, sign out the
 * other sessions, download one's data, delete the account.
 */
describe(`The account page in Chromium, without JavaScript`, { timeout: 60_000 }, () => {
  let server: ReferenceServer;
  let browser: Chromium;

  const page = () => browser.page;
  const go = (path: string) => page().goto(`${server.url}${path}`);
  /** Submits the form of one section of the account page and waits for the page that answers. */
  const submit = (section: string, url: string) =>
    Promise.all([
      page().waitForURL(`${server.url}${url}`),
      page().click(`#${section} button[type="submit"]`),
    ]);
  const flash = () => page().locator('.flash').textContent();

  beforeAll(async () => {
    browser = await launchChromium({ javaScript: false });
    server = await startReferenceServer({}, { engine: ANY_ENGINE });
    await server.app.container.make(Users).create(ADA);
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    if (browser) console.log(`Screenshots written to ${browser.shots}`);
  });

  it('changes the password: the wrong current one is refused next to its field, then the change is made', async () => {
    await go('/login');
    await page().fill('#field-email', ADA.email);
    await page().fill('#field-password', ADA.password);
    await Promise.all([
      page().waitForURL(`${server.url}/dashboard`),
      page().click('main button[type="submit"]'),
    ]);
    await go('/account');
    await browser.shot('account-01-page');

    await page().fill('#password input[name="current_password"]', 'not my password');
    await page().fill('#password input[name="password"]', NEW_PASSWORD);
    await page().fill('#password input[name="password_confirmation"]', NEW_PASSWORD);
    await submit('password', '/account/password');
    await expect(page().locator('#password .error').textContent()).resolves.toBe(
      'The current password is incorrect.',
    );
    await browser.shot('account-02-wrong-password');

    await page().fill('#password input[name="current_password"]', ADA.password);
    await page().fill('#password input[name="password"]', NEW_PASSWORD);
    await page().fill('#password input[name="password_confirmation"]', NEW_PASSWORD);
    await submit('password', '/account');
    await expect(flash()).resolves.toContain('Your password has been changed.');
  });

  it('changes the e-mail address through the link mailed to the new one', async () => {
    await page().fill('#email input[name="email"]', NEW_EMAIL);
    await page().fill('#email input[name="current_password"]', NEW_PASSWORD);
    await submit('email', '/account');
    await expect(flash()).resolves.toContain(`We sent a link to ${NEW_EMAIL}.`);
    await browser.shot('account-03-email-link-sent');

    // Without MAIL_URL the mail waits in the outbox: open it there, as a developer would.
    await go('/dev/mail');
    await page().click(`tr:has-text("${NEW_EMAIL}") a`);
    await page().click('a:has-text("Open the HTML part")');
    const link = await page().locator('a[href*="/account/email/confirm"]').first().getAttribute('href');
    await page().goto(link!);
    await browser.shot('account-04-email-confirm');
    await Promise.all([
      page().waitForURL(`${server.url}/account`),
      page().click('main button[type="submit"]'),
    ]);
    await expect(flash()).resolves.toContain('Your e-mail address has been changed.');
    await expect(page().locator('main').textContent()).resolves.toContain(NEW_EMAIL);
  });

  it('signs out the other sessions', async () => {
    const phone = browserOn(server);
    expect((await phone.submit('/login', { email: NEW_EMAIL, password: NEW_PASSWORD })).status).toBe(302);
    await go('/account');
    expect(await page().locator('#sessions tbody tr').count()).toBe(2);
    await submit('sessions', '/account');
    await expect(flash()).resolves.toBe('Signed out 1 other session.');
    expect(await page().locator('#sessions tbody tr').count()).toBe(1);
    expect((await phone.get('/account')).status).toBe(302);
    await browser.shot('account-05-sessions');
  });

  it('downloads the data as a JSON file', async () => {
    const [download] = await Promise.all([
      page().waitForEvent('download'),
      page().click('#data a:has-text("Download my data")'),
    ]);
    expect(download.suggestedFilename()).toMatch(/^account-\d+-data\.json$/);
    const data = JSON.parse(await readFile((await download.path())!, 'utf8'));
    expect(data.account).toMatchObject({ name: ADA.name, email: NEW_EMAIL });
    expect(data.sessions).toHaveLength(1);
  });

  it('deletes the account: a wrong password is refused, the right one signs out for good', async () => {
    await page().fill('#delete input[name="current_password"]', ADA.password);
    await submit('delete', '/account/delete');
    await expect(page().locator('#delete .error').textContent()).resolves.toBe(
      'The current password is incorrect.',
    );
    await browser.shot('account-06-delete-refused');

    await page().fill('#delete input[name="current_password"]', NEW_PASSWORD);
    await submit('delete', '/login');
    await expect(flash()).resolves.toContain('Your account has been deleted.');
    await browser.shot('account-07-deleted');
    await page().fill('#field-email', NEW_EMAIL);
    await page().fill('#field-password', NEW_PASSWORD);
    await Promise.all([page().waitForURL(`${server.url}/login`), page().click('main button[type="submit"]')]);
    await expect(page().locator('main').textContent()).resolves.toContain(
      'These credentials do not match our records.',
    );
  });
});
