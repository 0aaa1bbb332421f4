import { AxeBuilder } from '@axe-core/playwright';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { codeAt } from '../../src/accounts/two-factor/totp.js';
import { ANY_ENGINE } from '../support/engines.js';
import { type Chromium, launchChromium } from './chromium.js';
import { type ReferenceServer, startReferenceServer } from './server.js';

const ADA = { name: 'Ada Lovelace', email: 'ada@example.com', password: 'correct horse battery' };

/**
 * Two-factor authentication in Chromium against the reference service: set up the app from the
 * account page (codes computed here, as an authenticator app would), then sign in with a code and
 * with a recovery code.
 */
describe(`Two-factor authentication in Chromium`, { timeout: 60_000 }, () => {
  let server: ReferenceServer;
  let browser: Chromium;
  let seed: string;
  let recoveryCodes: string[];
  /** The app's code the last sign-in used. */
  let used: string;

  const page = () => browser.page;
  const go = (path: string) => page().goto(`${server.url}${path}`);
  const submit = (url: string) =>
    Promise.all([page().waitForURL(`${server.url}${url}`), page().click('main button[type="submit"]')]);
  /** The app's code for the next 30-second step: later than any step used, still inside the window. */
  const nextCode = () => codeAt(seed, new Date(Date.now() + 30_000));
  const logOut = () =>
    Promise.all([
      page().waitForURL(`${server.url}/login`),
      page().click('header button:has-text("Log out")'),
    ]);
  /** axe's serious and critical findings on the page shown. */
  const violations = async () =>
    (await new AxeBuilder({ page: page() }).options({ resultTypes: ['violations'] }).analyze()).violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => v.id);
  const password = async () => {
    await go('/login');
    await page().fill('#field-email', ADA.email);
    await page().fill('#field-password', ADA.password);
  };

  beforeAll(async () => {
    browser = await launchChromium();
    server = await startReferenceServer({}, { engine: ANY_ENGINE });
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    if (browser) console.log(`Screenshots written to ${browser.shots}`);
  });

  it('sets up the authenticator app from the account page with a confirm step', async () => {
    await go('/register');
    await page().fill('#field-name', ADA.name);
    await page().fill('#field-email', ADA.email);
    await page().fill('#field-password', ADA.password);
    await page().fill('#field-password_confirmation', ADA.password);
    await submit('/login');
    await password();
    await submit('/dashboard');

    await go('/account');
    const card = page().locator('#two-factor');
    await Promise.all([
      page().waitForURL(`${server.url}/account/two-factor/setup`),
      card.locator('button:has-text("Set up an authenticator app")').click(),
    ]);
    // The QR code is an image the browser can draw.
    const qr = page().locator('img[alt="QR code for your authenticator app"]');
    await expect(qr.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).resolves.toBe(
      true,
    );
    seed = ((await page().locator('#totp-key').textContent()) ?? '').replace(/\s/g, '');
    expect(seed).toMatch(/^[A-Z2-7]{32}$/);
    await browser.shot('two-factor-01-setup');
    expect(await violations()).toEqual([]);

    await page().fill('#field-code', '000000');
    await page().click('main button[type="submit"]');
    await expect(page().locator('.error').textContent()).resolves.toContain(
      'This code is not the one the app shows.',
    );

    await page().fill('#field-code', codeAt(seed, new Date()));
    await page().click('main button[type="submit"]');
    await expect(page().locator('h1').textContent()).resolves.toBe('Two-factor authentication is on');
    recoveryCodes = await page().locator('.recovery-codes code').allTextContents();
    expect(recoveryCodes).toHaveLength(10);
    await browser.shot('two-factor-02-recovery-codes');
    expect(await violations()).toEqual([]);
    await Promise.all([page().waitForURL(`${server.url}/account`), page().click('text=I have saved them')]);
    await expect(card.textContent()).resolves.toContain('10 unused recovery codes left.');
    await browser.shot('two-factor-03-account');
  });

  it('signs in with the password, then a code from the app', async () => {
    await logOut();
    await password();
    await submit('/login/two-factor');
    await browser.shot('two-factor-04-challenge');
    expect(await violations()).toEqual([]);
    used = nextCode();
    await page().fill('#field-code', used);
    await submit('/dashboard');
  });

  it('a code used once is refused; a recovery code signs in, once', async () => {
    await logOut();
    await password();
    await submit('/login/two-factor');
    await page().fill('#field-code', used);
    await page().click('main button[type="submit"]');
    await expect(page().locator('.error').textContent()).resolves.toContain('This code was already used.');
    await page().fill('#field-code', recoveryCodes[0]!);
    await submit('/dashboard');

    await go('/account');
    await expect(page().locator('#two-factor').textContent()).resolves.toContain(
      '9 unused recovery codes left.',
    );
    await logOut();
    await password();
    await submit('/login/two-factor');
    await page().fill('#field-code', recoveryCodes[0]!);
    await page().click('main button[type="submit"]');
    await expect(page().locator('.error').textContent()).resolves.toContain('This code is not valid.');
    await browser.shot('two-factor-05-used-recovery-code');
  });
});
