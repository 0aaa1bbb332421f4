import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ANY_ENGINE } from '../support/engines.js';
import { type Chromium, launchChromium } from './chromium.js';
import { type ReferenceServer, startReferenceServer } from './server.js';

const GRACE = { name: 'Grace Hopper', email: 'grace@example.com', password: 'correct horse battery' };
const KATHERINE = {
  name: 'Katherine Johnson',
  email: 'katherine@example.com',
  password: 'correct horse battery',
};

/**
 * 3-D Secure in Chromium on the reference service and its embedded Stripe sandbox: subscribing
 * with a card that needs authentication goes to the confirmation page, on to the sandbox's
 * challenge page and back; a card typed on the sandbox's card page is saved through a SetupIntent.
 */
describe(`3-D Secure in Chromium`, { timeout: 60_000 }, () => {
  let server: ReferenceServer;
  let browser: Chromium;
  const page = () => browser.page;
  const go = (path: string) => page().goto(`${server.url}${path}`);

  async function signUp(person: typeof GRACE): Promise<void> {
    await go('/register');
    await page().fill('#field-name', person.name);
    await page().fill('#field-email', person.email);
    await page().fill('#field-password', person.password);
    await page().fill('#field-password_confirmation', person.password);
    await Promise.all([page().waitForURL(`${server.url}/login`), page().click('main button[type="submit"]')]);
    await page().fill('#field-email', person.email);
    await page().fill('#field-password', person.password);
    await Promise.all([
      page().waitForURL(`${server.url}/dashboard`),
      page().click('main button[type="submit"]'),
    ]);
  }

  beforeAll(async () => {
    browser = await launchChromium();
    server = await startReferenceServer({}, { engine: ANY_ENGINE });
    await signUp(GRACE);
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    if (browser) console.log(`Screenshots written to ${browser.shots}`);
  });

  it('saves a card typed on the sandbox card page, through 3-D Secure on setup', async () => {
    await go('/dashboard/billing');
    await page().click('a[href="/dashboard/billing/card/setup"]');
    await page().waitForURL(/\/_sandbox\/setup\/seti_/);
    await page().fill('#number', '4000 0025 0000 3155');
    await browser.shot('3ds-01-card-page');
    await Promise.all([page().waitForURL(/\/_sandbox\/3ds\/seti_/), page().click('button[type="submit"]')]);
    await browser.shot('3ds-02-setup-challenge');
    await Promise.all([
      page().waitForURL(`${server.url}/dashboard/billing`),
      page().click('button:has-text("Complete authentication")'),
    ]);
    await expect(page().locator('[data-card-on-file]').textContent()).resolves.toContain('Visa ending 3155');
    await browser.shot('3ds-03-card-saved');
    // Set up for off-session use, the card pays the subscription without another challenge.
    await page().check('#plan-basic-monthly');
    await expect(page().locator('#subscribe-on-file').isChecked()).resolves.toBe(true);
    await page().click('form[data-card-form] button[type="submit"]');
    await expect(page().locator('.flash').first().textContent()).resolves.toContain('Subscribed to Basic.');
    await expect(page().locator('[data-subscription]').getAttribute('data-state')).resolves.toBe('active');
    await browser.shot('3ds-03b-subscribed-with-card-on-file');
  });

  it('subscribes with a card that needs 3-D Secure: confirmation page, challenge, back active', async () => {
    await page().click('form[action="/logout"] button');
    await signUp(KATHERINE);
    await go('/dashboard/billing');
    await page().check('#plan-basic-monthly');
    await page().check('#subscribe-pm_card_threeDSecure2Required');
    await Promise.all([
      page().waitForURL(/\/billing\/payment\/pi_/),
      page().click('form[data-card-form] button[type="submit"]'),
    ]);
    await expect(page().locator('[data-payment-status]').getAttribute('data-payment-status')).resolves.toBe(
      'requires_action',
    );
    await browser.shot('3ds-04-confirmation-page');
    await go('/dashboard/billing');
    await expect(page().locator('[data-payment-banner]').textContent()).resolves.toContain(
      'needs your confirmation',
    );
    await browser.shot('3ds-05-billing-banner');
    await page().click('[data-payment-banner] a');
    await Promise.all([page().waitForURL(/\/_sandbox\/3ds\/pi_/), page().click('a[data-confirm-payment]')]);
    await expect(page().locator('h1').textContent()).resolves.toBe('3D Secure 2 test page');
    await browser.shot('3ds-06-challenge');
    await Promise.all([
      page().waitForURL(/\/billing\/payment\/pi_.*redirect_status=succeeded/),
      page().click('button:has-text("Complete authentication")'),
    ]);
    await expect(page().locator('[role="status"]').textContent()).resolves.toContain('Payment confirmed.');
    await browser.shot('3ds-07-confirmed');
    await page().click('a[href="/dashboard/billing"]');
    await expect(page().locator('[data-subscription]').getAttribute('data-state')).resolves.toBe('active');
    expect(await page().locator('[data-payment-banner]').count()).toBe(0);
    await browser.shot('3ds-08-active');
  });
});
