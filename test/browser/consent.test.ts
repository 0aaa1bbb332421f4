import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Callback, listenForCallback, signIn } from '../../examples/client-app/client.js';
import { Clients } from '../../src/oauth/index.js';
import { ANY_ENGINE } from '../support/engines.js';
import { type Chromium, launchChromium } from './chromium.js';
import { type ReferenceServer, startReferenceServer } from './server.js';
import { signUpAndLogIn } from './sign-up.js';

const ADA = { name: 'Ada Lovelace', email: 'ada@example.com', password: 'correct horse battery' };

/**
 * When the approval page shows and when it is skipped, in Chromium with the sample client:
 * a remembered approval, prompt=consent, the dashboard's Revoke, a first-party client.
 */
describe(`approval skipping in Chromium`, { timeout: 60_000 }, () => {
  let server: ReferenceServer;
  let browser: Chromium;
  let callback: Callback;
  let sample: { id: string; secret: string };

  const page = () => browser.page;
  /** The sample client's flow, the browser following the authorization URL. */
  const flow = (client: { id: string; secret: string }, options: { scope?: string; prompt?: string } = {}) =>
    signIn({
      baseUrl: server.url,
      clientId: client.id,
      clientSecret: client.secret,
      scope: options.scope ?? 'check-status',
      prompt: options.prompt,
      callback,
      // Not awaited: when the page is skipped, the navigation ends at the client's callback,
      // which answers only once the flow has redeemed the code.
      open: (url) =>
        void page()
          .goto(url.href)
          .catch(() => undefined),
    });
  const approvalShown = () => page().locator('.approval').count();
  const approve = async (name: string) => {
    await page().waitForSelector('.approval');
    await browser.shot(name);
    await page().click('button[value="approve"]');
  };
  const signedIn = async () => {
    await page().locator('body', { hasText: 'Signed in' }).waitFor();
    expect(page().url().startsWith(`${callback.redirectUri}?code=`)).toBe(true);
  };

  beforeAll(async () => {
    browser = await launchChromium();
    server = await startReferenceServer({}, { engine: ANY_ENGINE });
    callback = await listenForCallback(0);
    await signUpAndLogIn(page(), server.url, ADA);
    const created = await server.app.container
      .make(Clients)
      .create({ name: 'Sample client', redirect: callback.redirectUri });
    sample = { id: created.client.id, secret: created.plainSecret! };
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await callback?.close();
    await server?.stop();
  });

  it('the first time, the user approves on the page', async () => {
    const done = flow(sample);
    await approve('consent-01-first-approval');
    await done;
    await signedIn();
  });

  it('the same client and scopes again: no page, straight back to the client', async () => {
    await flow(sample);
    await signedIn();
    expect(await approvalShown()).toBe(0);
    await browser.shot('consent-02-skipped');
  });

  it('a scope not approved before shows the page, with every requested scope', async () => {
    const done = flow(sample, { scope: 'check-status place-orders' });
    await page().waitForSelector('[data-scope="place-orders"]');
    await approve('consent-03-wider-scope');
    expect((await done).scope).toBe('check-status place-orders');
  });

  it('prompt=consent shows the page although everything was approved', async () => {
    const done = flow(sample, { prompt: 'consent' });
    await approve('consent-04-prompt-consent');
    await done;
    await signedIn();
  });

  it('revoking the application in the dashboard makes it ask again', async () => {
    await page().goto(`${server.url}/dashboard/tokens`);
    const row = page().locator(`[data-authorized-apps] tr[data-authorized="${sample.id}"]`);
    await row.waitFor();
    // Three approvals, one application.
    expect(await page().locator('[data-authorized-apps] tr[data-authorized]').count()).toBe(1);
    await expect(row.textContent()).resolves.toContain('place-orders');
    await browser.shot('consent-05-authorized-app');
    await row.locator('button[data-revoke]').click();
    await page().waitForSelector('[data-authorized-apps] [data-empty]:not(.hidden)');
    await browser.shot('consent-06-revoked');

    const done = flow(sample);
    await approve('consent-07-asked-again');
    await done;
    await signedIn();
  });

  it('a first-party client (tollgate client --first-party) never shows the page', async () => {
    const created = await server.app.container
      .make(Clients)
      .create({ name: 'Tollgate mobile', redirect: callback.redirectUri, firstParty: true });
    const own = { id: created.client.id, secret: created.plainSecret! };
    await flow(own, { scope: 'check-status place-orders' });
    await signedIn();
    expect(await approvalShown()).toBe(0);
    await browser.shot('consent-08-first-party');
  });
});
