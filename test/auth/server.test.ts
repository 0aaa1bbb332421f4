import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listen, type RunningServer } from '../../src/kernel/server.js';
import type { TestApp } from '../support/app.js';
import { ENGINES } from '../support/engines.js';
import { Browser, tokenIn } from './browser.js';
import { ADA, authApp } from './fixture.js';

/** The same flow over a real socket: the node adapter's cookies, bodies and peer address. */
describe.each(ENGINES)('login over HTTP (%s)', (engine) => {
  let t: TestApp;
  let server: RunningServer;

  beforeAll(async () => {
    t = await authApp({
      engine,
      config: { throttle: { login: { address: { points: 2, durationSeconds: 60 } } } },
    });
    server = await listen(t.app, '127.0.0.1', 0);
  });
  afterAll(async () => {
    await server.close();
    await t.close();
  });

  const cookieOf = (res: Response) => res.headers.getSetCookie()[0]!.split(';')[0]!;

  it('logs in and out through a real server', async () => {
    const page = await fetch(`${server.url}/login`);
    const cookie = cookieOf(page);
    const token = tokenIn(await page.text());
    const login = await fetch(`${server.url}/login`, {
      method: 'POST',
      redirect: 'manual',
      headers: { cookie, 'content-type': 'application/x-www-form-urlencoded', origin: server.url },
      body: new URLSearchParams({ _token: token, email: ADA.email, password: ADA.password }),
    });
    expect(login.status).toBe(302);
    const session = cookieOf(login);
    expect(session).not.toBe(cookie);
    const me = await fetch(`${server.url}/me`, { headers: { cookie: session } });
    expect(await me.json()).toEqual({ user: ADA.email });
  });

  it('counts failed logins per peer address', async () => {
    const attempt = async () => {
      const page = await fetch(`${server.url}/login`);
      return fetch(`${server.url}/login`, {
        method: 'POST',
        redirect: 'manual',
        headers: {
          cookie: cookieOf(page),
          'content-type': 'application/x-www-form-urlencoded',
          origin: server.url,
        },
        body: new URLSearchParams({ _token: tokenIn(await page.text()), email: ADA.email, password: 'nope' }),
      });
    };
    expect((await attempt()).status).toBe(422);
    expect((await attempt()).status).toBe(422);
    const refused = await attempt();
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);
    // In-process requests (no peer address) are another address: not refused.
    const browser = new Browser(t);
    expect((await browser.submit('/login', { email: ADA.email, password: 'nope' })).status).toBe(422);
  });
});
