import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openIdRequest } from '../oauth/openid-support.js';
import { ADA, type OAuthTestApp, oauthApp } from '../oauth/support.js';
import { ANY_ENGINE } from '../support/engines.js';
import { type Chromium, launchChromium } from './chromium.js';

/** A client's callback that records what is posted to it. */
async function postCallback(): Promise<{
  server: Server;
  url: string;
  next: () => Promise<URLSearchParams>;
}> {
  const waiting: ((body: URLSearchParams) => void)[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => {
      body += chunk;
    });
    req.on('end', () => {
      res.end(req.method === 'POST' ? 'received' : 'not a post');
      if (req.method === 'POST') waiting.shift()?.(new URLSearchParams(body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/callback`;
  return { server, url, next: () => new Promise((resolve) => waiting.push(resolve)) };
}

/**
 * OAuth 2.0 Form Post Response Mode in Chromium: the page's own CSP lets its script submit the
 * form to the client's callback, and a browser without JavaScript gets a button that does.
 */
describe(`response_mode=form_post in Chromium`, { timeout: 60_000 }, () => {
  let t: OAuthTestApp;
  let callback: Awaited<ReturnType<typeof postCallback>>;
  let clientId: string;

  beforeAll(async () => {
    t = await oauthApp({ engine: ANY_ENGINE });
    callback = await postCallback();
    clientId = (await t.createClient({ redirect: callback.url })).client.id;
  });
  afterAll(async () => {
    callback.server.close();
    await t.stop();
  });

  for (const javaScript of [true, false]) {
    it(`Form Post §2: the code and state are posted to the redirect URI (${javaScript ? 'auto-submitted' : 'button, no JavaScript'})`, async () => {
      const browser: Chromium = await launchChromium({ javaScript });
      try {
        const { page } = browser;
        await page.goto(`${t.url}/login`);
        await page.fill('input[name=email]', ADA.email);
        await page.fill('input[name=password]', ADA.password);
        await Promise.all([page.waitForURL(/dashboard/), page.press('input[name=password]', 'Enter')]);
        const request = await openIdRequest(clientId, {
          response_mode: 'form_post',
          redirect_uri: callback.url,
        });
        await page.goto(`${t.url}${request.path}`);
        const posted = callback.next();
        await page.click('button[value=approve]');
        if (!javaScript) await page.click('text=Continue');
        const body = await posted;
        expect(body.get('code')).toMatch(/^[A-Za-z0-9_-]{43}$/);
        expect(body.get('state')).toBe(request.state);
        expect(body.get('iss')).toBe('http://localhost');
        await page.waitForURL(callback.url);
        expect(await page.textContent('body')).toBe('received');
      } finally {
        await browser.close();
      }
    });
  }
});
