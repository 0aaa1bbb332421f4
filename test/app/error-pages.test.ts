import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Users } from '../../src/auth/users.js';
import { type ReferenceServer, startReferenceServer } from '../browser/server.js';
import { CookieJar } from '../support/cookie-jar.js';
import { ANY_ENGINE } from '../support/engines.js';

/** A cookie-keeping fetch against the running server. */
class Jar extends CookieJar {
  constructor(private readonly base: () => string) {
    super();
  }
  async fetch(path: string, init: RequestInit = {}): Promise<Response> {
    const headers = this.sendCookies(new Headers(init.headers));
    return this.keepCookies(await fetch(`${this.base()}${path}`, { ...init, headers, redirect: 'manual' }));
  }
}

/** The 404 and error pages keep the site's header, navigation and footer, and every page has an icon. */
describe(`error pages and the favicon in the reference service`, () => {
  let server: ReferenceServer;
  beforeAll(async () => {
    server = await startReferenceServer({}, { engine: ANY_ENGINE });
  }, 60_000);
  afterAll(async () => server?.stop());

  const page = async (path: string) => {
    const res = await fetch(`${server.url}${path}`, { redirect: 'manual' });
    return { status: res.status, html: await res.text(), type: res.headers.get('content-type') };
  };

  it('404: the layout (brand, Log in and Register, footer) around the status and a way back', async () => {
    const { status, html, type } = await page('/no/such/page');
    expect(status).toBe(404);
    expect(type).toContain('text/html');
    expect(html).toMatch(/^<!DOCTYPE html>/);
    expect(html).toContain('<header class="site-header">');
    expect(html).toContain('href="/login"');
    expect(html).toContain('href="/register"');
    expect(html).toContain('<footer class="site-footer">');
    expect(html).toContain('<h1>404</h1>');
    expect(html).toContain('<title>404 · Not Found · Tollgate</title>');
  });

  it("an error page after login (an approval that expired) shows the user's header", async () => {
    await server.app.container
      .make(Users)
      .create({ name: 'Ada Lovelace', email: 'ada@example.com', password: 'correct horse battery' });
    const jar = new Jar(() => server.url);
    const form = await (await jar.fetch('/login')).text();
    const token = () => /name="_token" value="([^"]+)"/.exec(form)![1]!;
    const post = (path: string, fields: Record<string, string>) =>
      jar.fetch(path, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', origin: server.url },
        body: new URLSearchParams(fields),
      });
    const login = await post('/login', {
      _token: token(),
      email: 'ada@example.com',
      password: 'correct horse battery',
    });
    expect([login.status, login.headers.get('location')]).toEqual([302, '/dashboard']);
    const dashboard = await (await jar.fetch('/dashboard')).text();
    const csrf = /name="csrf-token" content="([^"]+)"/.exec(dashboard)![1]!;
    const res = await post('/oauth/authorize', { _token: csrf, auth_token: 'none', state: '' });
    const html = await res.text();
    expect(res.status).toBe(400);
    expect(html).toContain('<header class="site-header">');
    expect(html).toContain('Ada Lovelace');
    expect(html).toContain('Log out');
    expect(html).toContain('This authorization request has expired');
  });

  it('the favicon: linked from every page, served as SVG at /favicon.svg and /favicon.ico', async () => {
    const landing = await page('/');
    expect(landing.html).toContain('<link rel="icon" href="/favicon.svg" type="image/svg+xml"/>');
    for (const path of ['/favicon.svg', '/favicon.ico']) {
      const icon = await page(path);
      expect([path, icon.status, icon.type]).toEqual([path, 200, 'image/svg+xml']);
      expect(icon.html).toMatch(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg"/);
    }
  });
});
