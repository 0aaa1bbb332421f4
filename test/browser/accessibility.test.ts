import { createHash } from 'node:crypto';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { AxeBuilder } from '@axe-core/playwright';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Clients, DEVICE_CODE_GRANT } from '../../src/oauth/index.js';
import { type Chromium, DESKTOP, launchChromium, PHONE } from './chromium.js';
import { type ReferenceServer, startReferenceServer } from './server.js';
import { signUpAndLogIn } from './sign-up.js';

const engine = process.env.TEST_DATABASE_URL ? 'postgres' : 'sqlite';
const ADA = { name: 'Ada Lovelace', email: 'ada@example.com', password: 'correct horse battery' };
const docs = readdirSync(join(import.meta.dirname, '../../docs'))
  .filter((file) => file.endsWith('.md'))
  .map((file) => file.replace(/\.md$/, ''));

/**
 * Every page of the reference service checked by axe-core in Chromium at 1280 and 390 px: no
 * serious or critical violation (WCAG 2.x A/AA and axe's best practices). One browser walks the
 * pages in order, signed out first, then signed in; a docs page may not scroll sideways on a phone
 * and its code blocks take keyboard focus.
 */
describe(`accessibility of every page in Chromium (${engine})`, { timeout: 300_000 }, () => {
  let server: ReferenceServer;
  let browser: Chromium;
  const page = () => browser.page;

  /**
   * Opens `path` and lists its serious and critical violations at both widths, and what `atPhone`
   * finds wrong with the page laid out at 390 px.
   */
  const audit = async (
    path: string,
    expectedStatus = 200,
    atPhone?: () => Promise<string[]>,
  ): Promise<string[]> => {
    const response = await page().goto(`${server.url}${path}`);
    expect(response?.status(), path).toBe(expectedStatus);
    const found: string[] = [];
    for (const size of [DESKTOP, PHONE]) {
      await page().setViewportSize(size);
      // Only the violations: axe skips collecting the nodes that pass, much faster on a long page.
      const axe = new AxeBuilder({ page: page() }).options({ resultTypes: ['violations'] });
      for (const violation of (await axe.analyze()).violations) {
        if (violation.impact !== 'serious' && violation.impact !== 'critical') continue;
        const targets = violation.nodes.slice(0, 3).map((node) => node.target.join(' '));
        found.push(
          `${path} @${size.width}: ${violation.id} ×${violation.nodes.length} (${targets.join(', ')})`,
        );
      }
      if (size === PHONE && atPhone) found.push(...(await atPhone()).map((problem) => `${path}: ${problem}`));
    }
    await page().setViewportSize(DESKTOP);
    return found;
  };
  const auditAll = async (paths: [string, number?][]) => {
    const found: string[] = [];
    for (const [path, status] of paths) found.push(...(await audit(path, status)));
    return found;
  };
  /** A docs page on a phone: no sideways scroll, and every code block takes keyboard focus. */
  const docsLayout = async () => {
    const layout = await page().evaluate(() => ({
      overflow: document.documentElement.scrollWidth - document.documentElement.clientWidth,
      unfocusable: [...document.querySelectorAll('pre')].filter((pre) => pre.tabIndex !== 0).length,
    }));
    return [
      ...(layout.overflow > 0 ? [`${layout.overflow} px wider than the phone`] : []),
      ...(layout.unfocusable > 0 ? [`${layout.unfocusable} <pre> without tabindex="0"`] : []),
    ];
  };

  beforeAll(async () => {
    browser = await launchChromium();
    server = await startReferenceServer();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('signed out: home, sign-in, registration, password reset and the missing page', async () => {
    const found = await auditAll([
      ['/'],
      ['/login'],
      ['/register'],
      ['/forgot-password'],
      ['/reset-password?token=not-a-token&email=ada%40example.com'],
      ['/no/such/page', 404],
    ]);
    expect(found).toEqual([]);
  });

  it('the docs: no violation, no sideways scroll at 390 px, code blocks take keyboard focus', async () => {
    const found = await audit('/docs');
    for (const name of docs) found.push(...(await audit(`/docs/${name}`, 200, docsLayout)));
    expect(found).toEqual([]);
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
