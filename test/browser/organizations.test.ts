import { AxeBuilder } from '@axe-core/playwright';
import type { Cookie } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Users } from '../../src/auth/users.js';
import { ANY_ENGINE } from '../support/engines.js';
import { type Chromium, DESKTOP, launchChromium, PHONE } from './chromium.js';
import { type ReferenceServer, startReferenceServer } from './server.js';

const ADA = { name: 'Ada Lovelace', email: 'ada@example.com', password: 'correct horse battery' };
const BOB = { name: 'Bob Babbage', email: 'bob@example.com', password: 'difference engine 1822' };

/**
 * The Organizations pages of the reference service in Chromium with JavaScript off: create one,
 * invite through the mailed link (read from the outbox page), accept as the invitee, change a
 * role, transfer ownership, leave; axe finds no serious or critical violation on the list and the organization page.
 */
describe(`Organizations in Chromium, without JavaScript`, { timeout: 90_000 }, () => {
  let server: ReferenceServer;
  let browser: Chromium;
  const page = () => browser.page;
  const go = (path: string) => page().goto(`${server.url}${path}`);
  const flash = () => page().locator('.flash').first().textContent();
  const click = (selector: string) =>
    Promise.all([page().waitForNavigation(), page().click(selector)]).then(() => undefined);
  const logIn = async (user: { email: string; password: string }) => {
    await go('/login');
    await page().fill('#field-email', user.email);
    await page().fill('#field-password', user.password);
    await click('main button[type="submit"]');
  };
  const logOut = async () => {
    await go('/organizations');
    await click('header button:has-text("Log out")');
  };
  /** The pages seen, with the cookies that showed them: axe needs JavaScript, so it reads them afterwards. */
  const seen: { url: string; cookies: Cookie[] }[] = [];
  const remember = async () => {
    seen.push({ url: page().url(), cookies: await page().context().cookies() });
  };

  beforeAll(async () => {
    browser = await launchChromium({ javaScript: false });
    server = await startReferenceServer({}, { engine: ANY_ENGINE });
    const users = server.app.container.make(Users);
    await users.create(ADA);
    await users.create(BOB);
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    if (browser) console.log(`Screenshots written to ${browser.shots}`);
  });

  it('creates an organization, invites, accepts, changes a role, transfers ownership, leaves', async () => {
    await logIn(ADA);
    await go('/organizations');
    await expect(page().locator('main').textContent()).resolves.toContain('You are not in any organization.');
    await remember();
    await page().fill('#field-name', 'Analytical Engines');
    await click('#create button[type="submit"]');
    expect(page().url()).toMatch(/\/organizations\/\d+$/);
    const orgPath = new URL(page().url()).pathname;
    await expect(flash()).resolves.toBe('Analytical Engines is created.');

    await page().fill('#field-email', BOB.email);
    await page().selectOption('#field-invite-role', 'member');
    await click('#invitations button[type="submit"]');
    await expect(flash()).resolves.toBe(`We sent an invitation to ${BOB.email}.`);
    await expect(page().locator('#invitations tbody').textContent()).resolves.toContain(BOB.email);
    await browser.shot('organizations-01-invited');
    await remember();

    // The invitation waits in the outbox (no MAIL_URL): open it there, as a developer would.
    await go('/dev/mail');
    await page().click(`tr:has-text("${BOB.email}") a`);
    await page().click('a:has-text("Open the HTML part")');
    const link = await page().locator('a[href*="/invitations/accept"]').first().getAttribute('href');
    await logOut();

    await logIn(BOB);
    await page().goto(link!);
    await expect(page().locator('main h1').textContent()).resolves.toBe('Join Analytical Engines');
    await browser.shot('organizations-02-accept');
    await remember();
    await click('main button[type="submit"]');
    expect(new URL(page().url()).pathname).toBe(orgPath);
    await expect(flash()).resolves.toBe('You joined Analytical Engines.');
    await expect(page().locator('main').textContent()).resolves.toContain('Your role: member');
    await logOut();

    await logIn(ADA);
    await go(orgPath);
    await page().selectOption(`#members tr:has-text("${BOB.email}") select`, 'admin');
    await click(`#members tr:has-text("${BOB.email}") button:has-text("Change role")`);
    await expect(flash()).resolves.toBe('The role is changed.');
    await expect(
      page().locator(`#members tr:has-text("${BOB.email}") td`).nth(2).textContent(),
    ).resolves.toBe('admin');
    await click('main button:has-text("Leave Analytical Engines")');
    await expect(page().locator('.flash').last().textContent()).resolves.toContain(
      'An organization needs at least one owner',
    );
    await browser.shot('organizations-03-last-owner');
    await remember();

    await page().selectOption('#field-transfer-to', { label: `${BOB.name} (${BOB.email})` });
    await click('#transfer button[type="submit"]');
    await expect(flash()).resolves.toBe('Ownership is transferred: you are now an admin.');
    await expect(page().locator('main').textContent()).resolves.toContain('Your role: admin');
    await click('main button:has-text("Leave Analytical Engines")');
    expect(new URL(page().url()).pathname).toBe('/organizations');
    await expect(flash()).resolves.toBe('You left the organization.');
  });

  it('axe finds no serious or critical violation on those pages, at 1280 and 390 px', async () => {
    const withScripts = await launchChromium();
    const found: string[] = [];
    try {
      for (const { url, cookies } of seen) {
        await withScripts.page.context().clearCookies();
        await withScripts.page.context().addCookies(cookies);
        await withScripts.page.goto(url);
        for (const size of [DESKTOP, PHONE]) {
          await withScripts.page.setViewportSize(size);
          const axe = new AxeBuilder({ page: withScripts.page }).options({ resultTypes: ['violations'] });
          for (const v of (await axe.analyze()).violations)
            if (v.impact === 'serious' || v.impact === 'critical')
              found.push(`${url} @${size.width}: ${v.id}`);
        }
      }
    } finally {
      await withScripts.close();
    }
    expect(seen).toHaveLength(4);
    expect(found).toEqual([]);
  });
});
