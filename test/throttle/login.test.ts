import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { REGISTERED } from '../../src/auth/controllers/register-controller.js';
import { verifyPassword } from '../../src/auth/password.js';
import { ENGINES } from '../support/engines.js';
import { ADA, HttpBrowser, type Served, serveInstances, statuses, store } from './support.js';

// Every password check goes through verifyPassword: counting its calls counts the argon2
// verifications the server actually ran, whatever the timing.
vi.mock('../../src/auth/password.js', async (original) => {
  const real = await original<typeof import('../../src/auth/password.js')>();
  return { ...real, verifyPassword: vi.fn(real.verifyPassword) };
});
const verifications = () => vi.mocked(verifyPassword).mock.calls.length;

/** `n` visitors, each with its session and the login form's token, ready to post at once. */
async function loginForms(bases: readonly string[], n: number) {
  return Promise.all(
    Array.from({ length: n }, (_, i) => new HttpBrowser(bases[i % bases.length]!).form('/login')),
  );
}

describe.each(ENGINES)(`password guessing over HTTP (%s, counters in the ${store})`, (engine) => {
  let s: Served | undefined;
  beforeEach(() => vi.mocked(verifyPassword).mockClear());
  afterEach(async () => {
    await s?.close();
    s = undefined;
  });

  it('30 parallel wrong logins for one account: at most 5 passwords checked, the rest 429', async () => {
    s = await serveInstances({ engine });
    const posts = await loginForms([s.servers[0]!.url], 30);
    const responses = await Promise.all(
      posts.map((post, i) => post({ email: ADA.email, password: `guess ${i}` })),
    );
    expect(verifications()).toBe(5);
    expect(statuses(responses)).toEqual({ 422: verifications(), 429: 30 - verifications() });
    const refused = responses.find((r) => r.status === 429)!;
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(refused.headers.get('ratelimit-policy')).toContain('"login.account";q=5;w=60');
    expect(refused.headers.get('ratelimit')).toMatch(/"login.account";r=0;t=\d+/);
    expect(await refused.text()).toMatch(/Too many login attempts\. Please try again in \d+ seconds\./);

    // The right password is not even checked while the account is blocked.
    const before = verifications();
    const post = (await loginForms([s.servers[0]!.url], 1))[0]!;
    expect((await post({ email: ADA.email, password: ADA.password })).status).toBe(429);
    expect(verifications()).toBe(before);
  });

  it('two instances on one store share the limit: 30 guesses split between them, at most 5 checked', async () => {
    s = await serveInstances({ engine, count: 2 });
    const posts = await loginForms(
      s.servers.map((server) => server.url),
      30,
    );
    const responses = await Promise.all(
      posts.map((post, i) => post({ email: ADA.email, password: `guess ${i}` })),
    );
    expect(verifications()).toBe(5);
    expect(statuses(responses)).toEqual({ 422: 5, 429: 25 });
    // The counts live where this run says: Redis, or the shared database table.
    const rows = await s.apps[0]!.db.selectFrom('rate_limits').select('key').execute();
    if (store === 'Redis') expect(rows).toEqual([]);
    else expect(rows.length).toBeGreaterThan(0);
  });

  it('guesses from one address against many accounts stop at the address limit', async () => {
    s = await serveInstances({
      engine,
      config: { throttle: { login: { address: { points: 10, durationSeconds: 60 } } } },
    });
    const posts = await loginForms([s.servers[0]!.url], 20);
    const responses = await Promise.all(
      posts.map((post, i) => post({ email: `user${i}@example.com`, password: 'x' })),
    );
    expect(verifications()).toBeLessThanOrEqual(10);
    expect(statuses(responses)[429]).toBeGreaterThanOrEqual(10);
    expect(responses.find((r) => r.status === 429)!.headers.get('ratelimit-policy')).toContain(
      '"login.address";q=10;w=60',
    );
  });
});

describe.each(ENGINES)('registration races over HTTP (%s)', (engine) => {
  let s: Served | undefined;
  afterEach(async () => {
    await s?.close();
    s = undefined;
  });

  it('5 parallel sign-ups with one e-mail: one account, five identical answers, no 5xx', async () => {
    s = await serveInstances({ engine, count: 2 });
    const bases = s.servers.map((server) => server.url);
    const visitors = Array.from({ length: 5 }, (_, i) => new HttpBrowser(bases[i % 2]!));
    const posts = await Promise.all(visitors.map((v) => v.form('/register')));
    const responses = await Promise.all(
      posts.map((post, i) =>
        post({
          name: `Grace ${i}`,
          email: 'grace@example.com',
          password: `password number ${i}`,
          password_confirmation: `password number ${i}`,
        }),
      ),
    );
    expect(responses.map((r) => [r.status, r.headers.get('location')])).toEqual(
      Array.from({ length: 5 }, () => [302, '/login']),
    );
    const rows = await s.apps[0]!.db.selectFrom('users')
      .select('name')
      .where('email', '=', 'grace@example.com')
      .execute();
    expect(rows).toHaveLength(1);
    for (const visitor of visitors)
      expect(await (await visitor.request('/login')).text()).toContain(REGISTERED);
  });

  it('sign-ups are limited per address', async () => {
    s = await serveInstances({
      engine,
      config: { throttle: { registration: { address: { points: 3, durationSeconds: 3600 } } } },
    });
    const visitor = new HttpBrowser(s.servers[0]!.url);
    const answers: number[] = [];
    for (let i = 0; i < 4; i++) {
      const post = await visitor.form('/register');
      const res = await post({
        name: 'N',
        email: `n${i}@example.com`,
        password: 'a long password',
        password_confirmation: 'a long password',
      });
      answers.push(res.status);
      if (res.status === 429) {
        expect(res.headers.get('retry-after')).toMatch(/^\d+$/);
        expect(await res.text()).toMatch(
          /Too many registration attempts\. Please try again in \d+ seconds\./,
        );
      }
    }
    expect(answers).toEqual([302, 302, 302, 429]);
  });
});
