import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ANY_ENGINE } from '../support/engines.js';
import { type Chromium, launchChromium } from './chromium.js';
import { type ReferenceServer, startReferenceServer } from './server.js';
import { signUpAndLogIn } from './sign-up.js';

const ADA = { name: 'Ada Lovelace', email: 'ada@example.com', password: 'correct horse battery' };

/**
 * Stripe Checkout and the billing portal in Chromium on the reference service and its embedded
 * Stripe sandbox (the sandbox's stand-in pages): back from Checkout without paying, then subscribe
 * through it, then replace the card and cancel in the portal, and return to a subscription on its
 * grace period with the new card on file.
 */
describe(`Checkout and the billing portal in Chromium`, { timeout: 90_000 }, () => {
  let server: ReferenceServer;
  let browser: Chromium;
  const page = () => browser.page;
  const billing = () => `${server.url}/dashboard/billing`;

  beforeAll(async () => {
    browser = await launchChromium();
    server = await startReferenceServer({}, { engine: ANY_ENGINE });
    await signUpAndLogIn(browser.page, server.url, ADA);
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    if (browser) console.log(`Screenshots written to ${browser.shots}`);
  });

  it('subscribes through Checkout, cancels in the portal and returns to the grace period', async () => {
    await page().goto(billing());
    await page().selectOption('#checkout-plan', 'basic-monthly');
    await browser.shot('checkout-01-billing-page');
    await Promise.all([
      page().waitForURL(/\/_sandbox\/checkout\/cs_test_/),
      page().click('form[data-checkout-form] button[type="submit"]'),
    ]);
    await expect(page().locator('[data-line-item]').textContent()).resolves.toContain('Basic');
    // "Cancel and go back": nothing is made.
    await Promise.all([page().waitForURL(billing()), page().click('a[data-cancel]')]);
    expect(await page().locator('[data-subscription]').count()).toBe(0);

    await Promise.all([
      page().waitForURL(/\/_sandbox\/checkout\/cs_test_/),
      page().click('form[data-checkout-form] button[type="submit"]'),
    ]);
    await expect(page().locator('[data-total]').textContent()).resolves.toBe('$9.00');
    await page().fill('#number', '4242 4242 4242 4242');
    await browser.shot('checkout-02-checkout-page');
    await Promise.all([page().waitForURL(billing()), page().click('button[data-pay]')]);
    await expect(page().locator('.flash').first().textContent()).resolves.toContain('Subscribed to Basic.');
    await expect(page().locator('[data-subscription]').getAttribute('data-state')).resolves.toBe('active');
    await expect(page().locator('[data-card-on-file]').textContent()).resolves.toContain('Visa ending 4242');
    await browser.shot('checkout-03-subscribed');

    await Promise.all([
      page().waitForURL(/\/_sandbox\/portal\/bps_/),
      page().click('form[data-portal-form] button[type="submit"]'),
    ]);
    await expect(page().locator('[data-portal-state]').textContent()).resolves.toContain('Renews on');
    await browser.shot('checkout-04-portal');
    // A new card in the portal comes back through customer.updated.
    await page().fill('#number', '5555 5555 5555 4444');
    await Promise.all([
      page().waitForURL(/\/_sandbox\/portal\/bps_.*done=/),
      page().click('button:has-text("Update card")'),
    ]);
    await expect(page().locator('[data-portal-card]').textContent()).resolves.toContain('4444');
    await Promise.all([
      page().waitForURL(/\/_sandbox\/portal\/bps_.*done=/),
      page().click('button:has-text("Cancel plan")'),
    ]);
    await expect(page().locator('[data-portal-state]').textContent()).resolves.toContain('Cancels on');
    await browser.shot('checkout-05-portal-cancelled');
    await Promise.all([page().waitForURL(billing()), page().click('a[data-return]')]);
    await expect(page().locator('[data-subscription]').getAttribute('data-state')).resolves.toBe('grace');
    await expect(page().locator('[data-ends-at]').textContent()).resolves.toContain('end of the paid period');
    await expect(page().locator('[data-card-on-file]').textContent()).resolves.toContain(
      'MasterCard ending 4444',
    );
    await browser.shot('checkout-06-back-on-grace-period');
  });
});
