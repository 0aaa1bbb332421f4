import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DocumentServer, documentServer } from '../oauth/document-server.js';
import { ANY_ENGINE } from '../support/engines.js';
import { type Chromium, launchChromium } from './chromium.js';
import { type ReferenceServer, startReferenceServer } from './server.js';
import { signUpAndLogIn } from './sign-up.js';

const ADA = { name: 'Ada Lovelace', email: 'ada@example.com', password: 'correct horse battery' };
const CALLBACK = 'http://127.0.0.1/callback';

/** The reference service's approval page for a client known only by its metadata document URL. */
describe(`a Client ID Metadata Document client in Chromium`, { timeout: 60_000 }, () => {
  let server: ReferenceServer;
  let browser: Chromium;
  let site: DocumentServer;

  beforeAll(async () => {
    site = await documentServer();
    browser = await launchChromium();
    // The document is served on loopback over http: allowed here only, as in development.
    server = await startReferenceServer(
      {
        oauth: {
          clientIdMetadataDocuments: { enabled: true, allowHttp: true, allowAddressRanges: ['loopback'] },
        },
      },
      { engine: ANY_ENGINE },
    );
    await signUpAndLogIn(browser.page, server.url, ADA);
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await site?.close();
  });

  it('the approval page names the client as its document does, and the host that serves the document', async () => {
    const clientId = site.document('/agents/client.json', {
      client_name: 'Example Agent',
      redirect_uris: [CALLBACK],
      token_endpoint_auth_method: 'none',
    });
    const query = new URLSearchParams({
      client_id: clientId,
      redirect_uri: 'http://127.0.0.1:53682/callback',
      response_type: 'code',
      scope: 'check-status',
      code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
      code_challenge_method: 'S256',
    });
    await browser.page.goto(`${server.url}/oauth/authorize?${query}`);
    await browser.page.waitForSelector('.approval');
    expect(await browser.page.locator('.client-name').textContent()).toBe('Example Agent');
    expect(await browser.page.locator('.client-host').textContent()).toBe(new URL(clientId).host);
    expect(await browser.page.locator('.client-unverified').count()).toBe(1);
    await browser.shot('cimd-01-approval-page');
  });
});
