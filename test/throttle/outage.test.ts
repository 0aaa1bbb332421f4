import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { authProvider } from '../../src/auth/index.js';
import type { Application } from '../../src/kernel/application.js';
import { Clients, installKeys, oauthProvider } from '../../src/oauth/index.js';
import { ENGINES } from '../support/engines.js';
import { ADA, HttpBrowser, type Served, serveInstances, statuses, store } from './support.js';

/** The users table out of reach, as in a database outage: every password check fails with 5xx. */
async function duringOutage<T>(app: Application, work: () => Promise<T>): Promise<T> {
  await sql`ALTER TABLE users RENAME TO users_offline`.execute(app.db);
  try {
    return await work();
  } finally {
    await sql`ALTER TABLE users_offline RENAME TO users`.execute(app.db);
  }
}

describe.each(ENGINES)(`an outage is not a lock-out (%s, counters in the ${store})`, (engine) => {
  let s: Served | undefined;
  afterEach(async () => {
    await s?.close();
    s = undefined;
  });

  it('35 login forms answered 500 during an outage count nothing: the right password then logs in', async () => {
    s = await serveInstances({ engine, providers: () => [authProvider(), oauthProvider()] });
    const browser = new HttpBrowser(s.servers[0]!.url);
    const post = await browser.form('/login');
    const failed = await duringOutage(s.apps[0]!, async () => {
      const responses: Response[] = [];
      for (let i = 0; i < 35; i++) responses.push(await post({ email: ADA.email, password: ADA.password }));
      return responses;
    });
    // More than `login.address` (30) and `login.account` (5) allow, had they been counted.
    expect(statuses(failed)).toEqual({ 500: 35 });
    const res = await post({ email: ADA.email, password: ADA.password });
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe('/dashboard');
  });

  it('35 password grants answered 500 during an outage count nothing: the right password then gets a token', async () => {
    s = await serveInstances({
      engine,
      providers: () => [authProvider(), oauthProvider()],
      setup: (app) => {
        installKeys(app.config.storagePath, app.config.oauth.signingAlgorithm);
      },
    });
    const { client, plainSecret } = await s.apps[0]!.container.make(Clients).create({
      name: 'First-party app',
      redirect: '',
      password: true,
    });
    const url = `${s.servers[0]!.url}/oauth/token`;
    const grant = () =>
      fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          grant_type: 'password',
          username: ADA.email,
          password: ADA.password,
          client_id: client.id,
          client_secret: plainSecret!,
        }),
      });
    const failed = await duringOutage(s.apps[0]!, async () => {
      const responses: Response[] = [];
      for (let i = 0; i < 35; i++) responses.push(await grant());
      return responses;
    });
    expect(statuses(failed)).toEqual({ 500: 35 });
    expect((await grant()).status).toBe(200);
  });
});
