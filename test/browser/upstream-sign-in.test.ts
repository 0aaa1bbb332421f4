import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ANY_ENGINE } from '../support/engines.js';
import { startUpstreamIdp, type UpstreamIdp } from '../support/upstream-idp.js';
import { type Chromium, launchChromium } from './chromium.js';
import { type ReferenceServer, startReferenceServer } from './server.js';

const ADA = { name: 'Ada Lovelace', email: 'ada@example.com', password: 'correct horse battery' };

/**
 * "Sign in with …" in Chromium against the reference service and a real OpenID Connect provider
 * (oidc-provider) started here: link and unlink from the account page, sign up and sign in through
 * the provider, the last sign-in method kept, and the provider's refusal shown as a page.
 */
describe(`Sign in with an upstream provider in Chromium`, { timeout: 60_000 }, () => {
  let idp: UpstreamIdp;
  let server: ReferenceServer;
  let browser: Chromium;

  const page = () => browser.page;
  const go = (path: string) => page().goto(`${server.url}${path}`);
  const submit = (url: string, selector = 'main button[type="submit"]') =>
    Promise.all([page().waitForURL(`${server.url}${url}`), page().click(selector)]);
  /** At the provider's login page: sign in as `login` there; back at `url` of the app. */
  const atProvider = async (login: string, url: string) => {
    await page().waitForURL(`${idp.issuer}/interaction/**`);
    await page().fill('#login', login);
    await Promise.all([page().waitForURL(`${server.url}${url}`), page().click('button:has-text("Sign in")')]);
  };
  /** Signs out of the app and forgets the provider's session too (a new visitor). */
  const leave = async () => {
    await Promise.all([
      page().waitForURL(`${server.url}/login`),
      page().click('header button:has-text("Log out")'),
    ]);
    await browser.context.clearCookies();
  };
  const flash = () => page().locator('[role="status"], [role="alert"], .flash, .error').allTextContents();

  beforeAll(async () => {
    idp = await startUpstreamIdp();
    idp.accounts.set('ada-idp', { email: 'ada.l@idp.example', email_verified: true, name: 'Ada' });
    idp.accounts.set('grace', { email: 'grace@example.com', email_verified: true, name: 'Grace Hopper' });
    server = await startReferenceServer(
      {
        signin: {
          upstream: {
            providers: {
              idp: {
                type: 'oidc',
                label: 'Test IdP',
                issuer: idp.issuer,
                clientId: idp.clientId,
                clientSecret: idp.clientSecret,
              },
            },
          },
        },
      },
      { engine: ANY_ENGINE },
    );
    await idp.register(`${server.url}/login/idp/callback`);
    browser = await launchChromium();
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await idp?.stop();
    if (browser) console.log(`Screenshots written to ${browser.shots}`);
  });

  it('links the provider from the account page, then unlinks it while the password remains', async () => {
    await go('/register');
    await page().fill('#field-name', ADA.name);
    await page().fill('#field-email', ADA.email);
    await page().fill('#field-password', ADA.password);
    await page().fill('#field-password_confirmation', ADA.password);
    await submit('/login');
    await page().fill('#field-email', ADA.email);
    await page().fill('#field-password', ADA.password);
    await submit('/dashboard');

    await go('/account');
    const card = page().locator('#linked-accounts');
    await card.locator('button:has-text("Link Test IdP")').click();
    await atProvider('ada-idp', '/account#linked-accounts');
    await expect(card.textContent()).resolves.toContain('linked (ada.l@idp.example)');
    expect((await flash()).join(' ')).toContain('Test IdP is linked: you can sign in with it.');
    await browser.shot('upstream-01-linked');

    await Promise.all([
      page().waitForURL(`${server.url}/account#linked-accounts`),
      card.locator('button:has-text("Unlink Test IdP")').click(),
    ]);
    expect((await flash()).join(' ')).toContain('Test IdP is unlinked.');
    await expect(card.locator('button:has-text("Link Test IdP")').count()).resolves.toBe(1);
  });

  it('signs up through the provider from the login page, and signs in again', async () => {
    await leave();
    await go('/login');
    await page().click('a:has-text("Sign in with Test IdP")');
    await atProvider('grace', '/dashboard');
    await go('/account');
    await expect(page().locator('main').textContent()).resolves.toContain('grace@example.com');

    await leave();
    await go('/login');
    await browser.shot('upstream-02-login-page');
    await page().click('a:has-text("Sign in with Test IdP")');
    await atProvider('grace', '/dashboard');
  });

  it('refuses to unlink the only way to sign in', async () => {
    await go('/account');
    const card = page().locator('#linked-accounts');
    await Promise.all([
      page().waitForURL(`${server.url}/account#linked-accounts`),
      card.locator('button:has-text("Unlink Test IdP")').click(),
    ]);
    expect((await flash()).join(' ')).toContain('This is your only way to sign in.');
    await expect(card.locator('button:has-text("Unlink Test IdP")').count()).resolves.toBe(1);
    await browser.shot('upstream-03-last-method');
  });

  it('shows the provider’s refusal as a clear page', async () => {
    await leave();
    await go('/login');
    await page().click('a:has-text("Sign in with Test IdP")');
    await page().waitForURL(`${idp.issuer}/interaction/**`);
    await Promise.all([
      page().waitForURL(`${server.url}/login/idp/callback**`),
      page().click('button:has-text("Deny")'),
    ]);
    await expect(page().locator('h1').textContent()).resolves.toBe('Sign-in did not work');
    await expect(page().locator('[role="alert"]').textContent()).resolves.toContain(
      'Sign-in with Test IdP was cancelled: The user refused.',
    );
    await browser.shot('upstream-04-refused');
  });
});
