import { afterEach, describe, expect, it } from 'vitest';
import { authProvider } from '../../src/auth/index.js';
import { Users } from '../../src/auth/users.js';
import { installKeys, oauthProvider } from '../../src/oauth/index.js';
import { ENGINES } from '../support/engines.js';
import { ADA, HttpBrowser, type Served, serveInstances, store } from './support.js';

const GRACE = { name: 'Grace Hopper', email: 'grace@example.com', password: 'a ship in harbour' };

async function signedIn(base: string, user: { email: string; password: string }): Promise<HttpBrowser> {
  const browser = new HttpBrowser(base);
  const res = await (await browser.form('/login'))(user);
  if (res.status !== 302) throw new Error(`login failed: ${res.status}`);
  return browser;
}

const getJson = (browser: HttpBrowser, path: string) =>
  browser.request(path, { headers: { accept: 'application/json' } });

describe.each(ENGINES)(`the OAuth JSON APIs' per-user limit (%s, counters in the ${store})`, (engine) => {
  let s: Served | undefined;
  afterEach(async () => {
    await s?.close();
    s = undefined;
  });

  it('counts every call per user across the APIs and instances; another user keeps their own budget', async () => {
    s = await serveInstances({
      engine,
      count: 2,
      config: { oauth: { throttle: { api: { user: { points: 3, durationSeconds: 60 } } } } },
      providers: () => [authProvider(), oauthProvider()],
      setup: (app) => {
        installKeys(app.config.storagePath, app.config.oauth.signingAlgorithm);
      },
    });
    await s.apps[0]!.container.make(Users).create(GRACE);
    const [a, b] = s.servers.map((server) => server.url) as [string, string];
    const ada = await signedIn(a, ADA);
    const first = await getJson(ada, '/oauth/clients');
    expect(first.status).toBe(200);
    expect(first.headers.get('ratelimit-policy')).toBe('"oauth-api.user";q=3;w=60');
    expect(first.headers.get('ratelimit')).toMatch(/^"oauth-api.user";r=2;t=\d+$/);
    expect((await getJson(ada, '/oauth/personal-access-tokens')).status).toBe(200);
    expect((await getJson(ada, '/oauth/scopes')).status).toBe(200);
    const refused = await getJson(ada, '/oauth/tokens');
    expect(refused.status).toBe(429);
    expect(await refused.json()).toEqual({ message: 'Too Many Attempts.' });
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);

    // The same session on the other instance: the same count.
    const elsewhere = new HttpBrowser(b);
    for (const [name, value] of ada.cookies) elsewhere.cookies.set(name, value);
    expect((await getJson(elsewhere, '/oauth/clients')).status).toBe(429);

    const grace = await signedIn(b, GRACE);
    expect((await getJson(grace, '/oauth/clients')).status).toBe(200);
  });

  it('pages are not limited by it: the dashboard stays outside', async () => {
    s = await serveInstances({
      engine,
      config: { oauth: { throttle: { api: { user: { points: 1, durationSeconds: 60 } } } } },
      providers: () => [authProvider(), oauthProvider()],
      setup: (app) => {
        installKeys(app.config.storagePath, app.config.oauth.signingAlgorithm);
      },
    });
    const ada = await signedIn(s.servers[0]!.url, ADA);
    for (let i = 0; i < 3; i++) expect((await ada.request('/dashboard')).status).toBe(200);
    expect((await getJson(ada, '/oauth/clients')).status).toBe(200);
    expect((await getJson(ada, '/oauth/clients')).status).toBe(429);
  });
});
