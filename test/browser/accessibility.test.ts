import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Clients, DEVICE_CODE_GRANT } from '../../src/oauth/index.js';
import { ANY_ENGINE } from '../support/engines.js';
import { axeAuditor } from './axe-audit.js';
import { type Chromium, launchChromium } from './chromium.js';
import { type ReferenceServer, startReferenceServer } from './server.js';
import { signUpAndLogIn } from './sign-up.js';

const ADA = { name: 'Ada Lovelace', email: 'ada@example.com', password: 'correct horse battery' };

/**
 * The signed-in pages of the reference service checked by axe-core in Chromium at 1280 and 390 px:
 * no serious or critical violation (WCAG 2.x A/AA and axe's best practices). Markup does not depend
 * on the engine, so they run once; the public pages: accessibility-public.test.ts.
 */
describe(`accessibility of the signed-in pages in Chromium`, { timeout: 300_000 }, () => {
  let server: ReferenceServer;
  let browser: Chromium;
  const page = () => browser.page;
  const { auditAll } = axeAuditor(
    () => browser,
    () => server.url,
  );

  beforeAll(async () => {
    browser = await launchChromium();
    server = await startReferenceServer({}, { engine: ANY_ENGINE });
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('signed in: dashboard, tokens, clients, account, usage, billing with invoices, and the error pages', async () => {
    await signUpAndLogIn(page(), server.url, ADA);
    const { client } = await server.app.container
      .make(Clients)
      .create({ name: 'Audit client', redirect: 'https://client.example/callback' });
    // A subscription, so the billing page lists an invoice and the card on file.
    await page().goto(`${server.url}/dashboard/billing`);
    await page().check('#plan-basic-monthly');
    await page().check('#subscribe-tok_visa');
    await page().click('text=Subscribe');
    await page().waitForSelector('[data-invoices] tr[data-invoice]');
    const found = await auditAll([
      ['/dashboard'],
      ['/dashboard/tokens'],
      ['/dashboard/clients'],
      [`/dashboard/clients/${client.id}/edit`],
      ['/account'],
      ['/dashboard/usage'],
      ['/dashboard/billing'],
      ['/user/invoice/in_no_such_invoice', 404],
      ['/oauth/authorize?client_id=no-such-client&response_type=code', 400],
    ]);
    expect(found).toEqual([]);
  });

  it('the approval page and the device pages', async () => {
    const { client } = await server.app.container
      .make(Clients)
      .create({ name: 'Audit approval client', redirect: 'https://client.example/callback' });
    const challenge = createHash('sha256').update('a'.repeat(43)).digest('base64url');
    const authorize = new URLSearchParams({
      client_id: client.id,
      redirect_uri: 'https://client.example/callback',
      response_type: 'code',
      scope: 'check-status',
      state: 'audit',
      code_challenge: challenge,
      code_challenge_method: 'S256',
    });
    const { client: device } = await server.app.container.make(Clients).create({
      name: 'Audit TV',
      redirect: '',
      confidential: false,
      grantTypes: [DEVICE_CODE_GRANT],
    });
    const codes = await fetch(`${server.url}/oauth/device/code`, {
      method: 'POST',
      body: new URLSearchParams({ client_id: device.id }),
    });
    const { user_code: userCode } = (await codes.json()) as { user_code: string };
    const found = await auditAll([
      [`/oauth/authorize?${authorize}`],
      ['/oauth/device'],
      [`/oauth/device?user_code=${encodeURIComponent(userCode)}`],
    ]);
    expect(found).toEqual([]);
  });
});
