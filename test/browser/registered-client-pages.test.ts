import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DocumentServer, documentServer } from '../oauth/document-server.js';
import { ANY_ENGINE } from '../support/engines.js';
import { type Chromium, launchChromium } from './chromium.js';
import { type ReferenceServer, startReferenceServer } from './server.js';
import { signUpAndLogIn } from './sign-up.js';

const ADA = { name: 'Ada Lovelace', email: 'ada@example.com', password: 'correct horse battery' };
const CALLBACK = 'http://127.0.0.1/callback';

/**
 * The approval page of a dynamically registered client with a logo, a privacy policy and terms
 * of service (the Dynamic OP plan's logo/policy/tos modules ask for a screenshot of it): the logo
 * comes from the client's own site, which the page's Content-Security-Policy must let in.
 */
describe(`a registered client's logo and pages in Chromium`, { timeout: 60_000 }, () => {
  let server: ReferenceServer;
  let browser: Chromium;
  let site: DocumentServer;

  beforeAll(async () => {
    site = await documentServer();
    browser = await launchChromium();
    server = await startReferenceServer({ oauth: { registration: 'open' } }, { engine: ANY_ENGINE });
    await signUpAndLogIn(browser.page, server.url, ADA);
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await site?.close();
  });

  it('shows the logo from the client site with its alt text, and links to its policy and terms', async () => {
    site.serve('/logo.svg', {
      headers: { 'content-type': 'image/svg+xml' },
      body: '<svg xmlns="http://www.w3.org/2000/svg" width="8" height="8"><rect width="8" height="8" fill="#2e9e44"/></svg>',
    });
    const res = await fetch(`${server.url}/oauth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        client_name: 'Example Shop',
        redirect_uris: [CALLBACK],
        token_endpoint_auth_method: 'none',
        logo_uri: site.url('/logo.svg'),
        policy_uri: 'https://shop.example/privacy',
        tos_uri: 'https://shop.example/terms',
      }),
    });
    expect(res.status).toBe(201);
    const { client_id } = (await res.json()) as { client_id: string };
    const query = new URLSearchParams({
      client_id,
      redirect_uri: CALLBACK,
      response_type: 'code',
      scope: 'openid',
      code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
      code_challenge_method: 'S256',
    });
    await browser.page.goto(`${server.url}/oauth/authorize?${query}`);
    const image = browser.page.locator('img.client-logo');
    await expect(image.getAttribute('alt')).resolves.toBe('Example Shop logo');
    // Loaded and decoded: the page's policy allowed the client's origin for this image.
    await browser.page.waitForFunction(() => {
      const img = document.querySelector('img.client-logo') as HTMLImageElement | null;
      return img?.complete && img.naturalWidth > 0;
    });
    expect(await image.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(8);
    expect(site.hits('/logo.svg')).toBe(1);
    await expect(browser.page.locator('a.client-policy').getAttribute('href')).resolves.toBe(
      'https://shop.example/privacy',
    );
    await expect(browser.page.locator('a.client-tos').getAttribute('href')).resolves.toBe(
      'https://shop.example/terms',
    );
    await browser.shot('registered-client-01-logo-and-pages');
  });
});
