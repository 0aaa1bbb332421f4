import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ANY_ENGINE } from '../support/engines.js';
import { type Chromium, launchChromium } from './chromium.js';
import { type ReferenceServer, startReferenceServer } from './server.js';

/** The billing page when the service runs the Braintree edition (its embedded sandbox, nonces). */
describe(`reference service, Braintree edition, in Chromium`, { timeout: 60_000 }, () => {
  let server: ReferenceServer;
  let browser: Chromium;
  const page = () => browser.page;
  const go = (path: string) => page().goto(`${server.url}${path}`);

  beforeAll(async () => {
    browser = await launchChromium();
    server = await startReferenceServer({ billing: { edition: 'braintree' } }, { engine: ANY_ENGINE });
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('subscribes with a sandbox nonce, cancels, resumes, switches to PayPal, downloads the invoice', async () => {
    await go('/register');
    await page().fill('#field-name', 'Grace Hopper');
    await page().fill('#field-email', 'grace@example.com');
    await page().fill('#field-password', 'a ship in harbour');
    await page().fill('#field-password_confirmation', 'a ship in harbour');
    await Promise.all([page().waitForURL('**/login'), page().click('main button[type="submit"]')]);
    await page().fill('#field-email', 'grace@example.com');
    await page().fill('#field-password', 'a ship in harbour');
    await Promise.all([page().waitForURL('**/dashboard'), page().click('main button[type="submit"]')]);

    await go('/dashboard/billing');
    expect(await page().locator('input[name="test_card"][value="tok_visa"]').count()).toBe(0);
    await page().check('#subscribe-fake-processor-declined-visa-nonce');
    await Promise.all([page().waitForURL('**/dashboard/billing'), page().click('text=Subscribe')]);
    await expect(page().locator('.flash-error').textContent()).resolves.toMatch(/declined/i);

    await page().check('#plan-basic-monthly');
    await page().check('#subscribe-fake-valid-nonce');
    await page().click('text=Subscribe');
    await page().waitForSelector('[data-subscription][data-state="active"]');
    await page().waitForSelector('[data-invoices] tr[data-invoice]');
    await browser.shot('20-braintree-billing');

    await page().click('text=Cancel subscription');
    await page().waitForSelector('[data-subscription][data-state="grace"]');
    await page().click('text=Resume subscription');
    await page().waitForSelector('[data-subscription][data-state="active"]');

    await page().click('summary:has-text("Update card")');
    await page().check('#update-fake-paypal-billing-agreement-nonce');
    await page().click('text=Save card');
    await page().locator('[data-card-on-file]', { hasText: 'PayPal account' }).waitFor();
    await browser.shot('21-braintree-paypal');

    const [download] = await Promise.all([
      page().waitForEvent('download'),
      page().click('text=Download PDF'),
    ]);
    const file = join(browser.shots, 'braintree-invoice.pdf');
    await download.saveAs(file);
    expect(readFileSync(file).subarray(0, 5).toString()).toBe('%PDF-');
  });

  it('subscribes with a card that needs 3-D Secure: confirmation page, the Drop-in challenge, back active', async () => {
    await page().click('form[action="/logout"] button');
    await go('/register');
    await page().fill('#field-name', 'Katherine Johnson');
    await page().fill('#field-email', 'katherine@example.com');
    await page().fill('#field-password', 'correct horse battery');
    await page().fill('#field-password_confirmation', 'correct horse battery');
    await Promise.all([page().waitForURL('**/login'), page().click('main button[type="submit"]')]);
    await page().fill('#field-email', 'katherine@example.com');
    await page().fill('#field-password', 'correct horse battery');
    await Promise.all([page().waitForURL('**/dashboard'), page().click('main button[type="submit"]')]);

    await go('/dashboard/billing');
    await page().check('#plan-basic-monthly');
    await page().check('#subscribe-fake-valid-three-d-secure-visa-nonce');
    await Promise.all([page().waitForURL(/\/billing\/payment\/\w+$/), page().click('text=Subscribe')]);
    await expect(page().locator('[data-payment-status]').getAttribute('data-payment-status')).resolves.toBe(
      'requires_action',
    );
    await browser.shot('22-braintree-3ds-confirmation');
    await go('/dashboard/billing');
    await expect(page().locator('[data-payment-banner]').textContent()).resolves.toContain(
      'needs your confirmation',
    );
    await page().click('[data-payment-banner] a');
    await Promise.all([
      page().waitForURL(/\/_sandbox\/three_d_secure\?/),
      page().click('a[data-confirm-payment]'),
    ]);
    await expect(page().locator('h1').textContent()).resolves.toBe('3D Secure 2 test page');
    await browser.shot('23-braintree-3ds-challenge');
    await Promise.all([
      page().waitForURL(/\/billing\/payment\/\w+\?payment_method_nonce=/),
      page().click('button:has-text("Complete authentication")'),
    ]);
    await expect(page().locator('[role="status"]').textContent()).resolves.toContain('Payment confirmed.');
    await browser.shot('24-braintree-3ds-confirmed');
    // A reload of the return URL (its nonce used) pays nothing more.
    await page().reload();
    await expect(page().locator('[role="status"]').textContent()).resolves.toContain('Payment confirmed.');
    await page().click('a[href="/dashboard/billing"]');
    await expect(page().locator('[data-subscription]').getAttribute('data-state')).resolves.toBe('active');
    expect(await page().locator('[data-payment-banner]').count()).toBe(0);
    await expect(page().locator('[data-invoices] tr[data-invoice]').count()).resolves.toBe(1);
    await browser.shot('25-braintree-3ds-active');
  });
});
