import { sql } from 'kysely';
import { Histogram, Registry } from 'prom-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { currentUser } from '../../src/auth/context.js';
import { defineMail, html } from '../../src/mail/index.js';
import { Mailer } from '../../src/mail/mailer.js';
import { mailProvider } from '../../src/mail/provider.js';
import { AuditLog } from '../../src/observability/audit/audit-log.js';
import { listenForMetrics } from '../../src/observability/metrics-server.js';
import { observabilityProvider } from '../../src/observability/provider.js';
import { RequestDurations } from '../../src/observability/request-durations.js';
import { RateLimits } from '../../src/rate-limits/rate-limits.js';
import { ADA, type OAuthTestApp, oauthApp, tokenRequest } from '../oauth/support.js';
import { createTestApp } from '../support/app.js';
import { ANY_ENGINE, ENGINES } from '../support/engines.js';
import { freePort } from '../support/free-port.js';
import { type Mailbox, startMailbox } from '../support/mailbox.js';
import { parseExposition, type Sample, sampleValue } from './scrape.js';

const TOKEN = 'scrape-me-0123456789';
const DURATION = 'http_server_request_duration_seconds_count';

const hello = defineMail<{ name: string }>({
  name: 'hello',
  subject: (d) => `Hello ${d.name}`,
  text: (d) => `Hello ${d.name}`,
  html: (d) => html`<p>Hello ${d.name}</p>`,
});

/** The service's metrics, scraped with the token. */
async function scrapeAt(url: string): Promise<Sample[]> {
  const res = await fetch(`${url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
  return parseExposition(await res.text());
}

describe.each(ENGINES)('GET /metrics (%s)', (engine) => {
  let t: OAuthTestApp;
  let service: { id: string; secret: string };
  let password: { id: string; secret: string };
  let mailbox: Mailbox;

  beforeAll(async () => {
    mailbox = await startMailbox();
    t = await oauthApp({
      engine,
      providers: [observabilityProvider()],
      modules: [mailProvider()],
      config: {
        observability: { metrics: { token: TOKEN } },
        // Polling off: the test drains the outbox when it means to.
        mail: { url: mailbox.url, worker: { pollMs: 0 } },
      },
      setup(app) {
        app.router.get('/api/me', (c) => c.json({ id: currentUser(c)?.id })).middleware('auth:api');
        const burst = app.container
          .make(RateLimits)
          .define('test.burst', { points: 2, durationSeconds: 600 });
        app.router.get('/burst', async (c) =>
          (await burst.consume('one')).allowed ? 'ok' : c.text('no', 429),
        );
      },
    });
    const a = await t.createClient();
    service = { id: a.client.id, secret: a.plainSecret! };
    const p = await t.createClient({ password: true });
    password = { id: p.client.id, secret: p.plainSecret! };
  });
  afterAll(async () => {
    await t?.stop();
    await mailbox?.close();
  });

  const scrape = () => scrapeAt(t.url);

  const accessToken = async () => {
    const res = await tokenRequest(t, {
      grant_type: 'password',
      client_id: password.id,
      client_secret: password.secret,
      username: ADA.email,
      password: ADA.password,
    });
    return ((await res.json()) as { access_token: string }).access_token;
  };
  const me = (authorization?: string) =>
    fetch(`${t.url}/api/me`, {
      headers: { accept: 'application/json', ...(authorization ? { authorization } : {}) },
    }).then((r) => r.status);

  it('counters move by exactly what a scripted mix of requests sent', async () => {
    // Tokens for the guard's checks, got before counting (they are tokens issued too).
    const [valid, revoked, expired] = await Promise.all([accessToken(), accessToken(), accessToken()]);
    const revocation = await fetch(`${t.url}/oauth/revoke`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ token: revoked, client_id: password.id, client_secret: password.secret }),
    });
    expect(revocation.status).toBe(200);
    const mailer = t.app.container.make(Mailer);
    const before = await scrape();
    const grant = (fields: Record<string, string>) => tokenRequest(t, fields).then((r) => r.status);
    const clientCredentials = {
      grant_type: 'client_credentials',
      client_id: service.id,
      client_secret: service.secret,
    };
    const passwordGrant = {
      grant_type: 'password',
      client_id: password.id,
      client_secret: password.secret,
      username: ADA.email,
      password: ADA.password,
    };
    const statuses = await Promise.all([
      grant(clientCredentials),
      grant(clientCredentials),
      grant(clientCredentials),
      grant(passwordGrant),
      grant(passwordGrant),
      grant({ ...clientCredentials, client_secret: 'wrong' }),
      fetch(`${t.url}/ready`).then((r) => r.status),
      fetch(`${t.url}/no/such/page`).then((r) => r.status),
    ]);
    expect(statuses).toEqual([200, 200, 200, 200, 200, 401, 200, 404]);
    const burst = [];
    for (let i = 0; i < 5; i++) burst.push((await fetch(`${t.url}/burst`)).status);
    expect(burst).toEqual([200, 200, 429, 429, 429]);

    // The guard: a token verified, then reused twice (cached); garbage; none; revoked; expired.
    const checks = [];
    for (const header of [`Bearer ${valid}`, `Bearer ${valid}`, `Bearer ${valid}`, 'Bearer not-a-token'])
      checks.push(await me(header));
    checks.push(await me(), await me(`Bearer ${revoked}`));
    t.clock.advanceDays(366);
    try {
      checks.push(await me(`Bearer ${expired}`));
    } finally {
      t.clock.advanceDays(-366);
    }
    expect(checks).toEqual([200, 200, 200, 401, 401, 401, 401]);

    // Mail: three sent, the first refused once (it waits for its retry), one queued and not sent yet.
    mailbox.refuseNext(1);
    for (const name of ['a', 'b', 'c']) await mailer.send(hello, `${name}@example.com`, { name });
    await mailer.drain();
    await mailer.send(hello, 'd@example.com', { name: 'd' }, { db: t.app.db });

    const after = await scrape();
    const moved = (name: string, labels: Record<string, string> = {}) =>
      sampleValue(after, name, labels) - sampleValue(before, name, labels);
    expect(moved('tollgate_oauth_tokens_issued_total', { grant: 'client_credentials' })).toBe(3);
    expect(moved('tollgate_oauth_tokens_issued_total', { grant: 'password' })).toBe(2);
    const token = (status: string) => ({
      http_route: 'passport.token',
      http_request_method: 'POST',
      http_response_status_code: status,
    });
    expect(moved(DURATION, token('200'))).toBe(5);
    expect(moved(DURATION, token('401'))).toBe(1);
    expect(
      moved(DURATION, { http_route: 'ready', http_request_method: 'GET', http_response_status_code: '200' }),
    ).toBe(1);
    // No route matched: the route label is empty, not the path (an unbounded label).
    expect(
      moved(DURATION, { http_route: '', http_request_method: 'GET', http_response_status_code: '404' }),
    ).toBe(1);
    const burstRoute = (status: string) => ({
      http_route: 'GET /burst',
      http_request_method: 'GET',
      http_response_status_code: status,
    });
    expect([moved(DURATION, burstRoute('200')), moved(DURATION, burstRoute('429'))]).toEqual([2, 3]);
    expect(moved('tollgate_rate_limit_refusals_total', { limit: 'test.burst' })).toBe(3);
    const verifications = (outcome: string) => moved('tollgate_oauth_token_verifications_total', { outcome });
    expect(['valid', 'invalid', 'missing', 'revoked', 'expired'].map(verifications)).toEqual([3, 1, 1, 1, 1]);
    expect(moved('tollgate_mail_send_failures_total')).toBe(1);
    const depth = (state: string) => sampleValue(after, 'tollgate_mail_outbox_depth', { state });
    expect(['pending', 'sending', 'failed'].map(depth)).toEqual([2, 0, 0]);
    // The scrape before this one is the only /metrics request in between.
    expect(
      moved(DURATION, {
        http_route: 'metrics',
        http_request_method: 'GET',
        http_response_status_code: '200',
      }),
    ).toBe(1);
  });

  it('carries the process, the event loop, Redis errors and, on PostgreSQL, the connection pool', async () => {
    const samples = await scrape();
    const names = new Set(samples.map((s) => s.name));
    for (const name of [
      'process_cpu_user_seconds_total',
      'nodejs_eventloop_lag_seconds',
      'process_resident_memory_bytes',
      'tollgate_redis_errors_total',
    ]) {
      expect(names).toContain(name);
    }
    if (engine === 'postgres') {
      expect(sampleValue(samples, 'tollgate_db_pool_connections', { state: 'total' })).toBeGreaterThan(0);
    } else {
      expect(names).not.toContain('tollgate_db_pool_connections');
    }
  });

  it('without the token: 401 with a Bearer challenge, and no metric in the body', async () => {
    const tries: Record<string, string>[] = [
      {},
      { authorization: 'Bearer wrong' },
      { authorization: `Basic ${TOKEN}` },
      { authorization: `Bearer ${TOKEN}x` },
    ];
    for (const headers of tries) {
      const res = await fetch(`${t.url}/metrics`, { headers });
      expect(res.status).toBe(401);
      expect(res.headers.get('www-authenticate')).toBe('Bearer realm="metrics"');
      expect(await res.text()).not.toContain('http_server');
    }
  });
});

// Pool waits exist only on PostgreSQL (SQLite has one connection and no pool).
describe.each(ENGINES.filter((engine) => engine === 'postgres'))('GET /metrics, the pool (%s)', (engine) => {
  let t: OAuthTestApp;
  beforeAll(async () => {
    t = await oauthApp({
      engine,
      providers: [observabilityProvider()],
      config: { observability: { metrics: { token: TOKEN } } },
    });
  });
  afterAll(async () => t?.stop());
  const scrape = () => scrapeAt(t.url);

  it('counts the queries that waited for a pool connection: 30 at once on 10 connections, 20 waits', async () => {
    // Nothing of the setup may hold a connection meanwhile.
    await t.app.container.make(AuditLog).flush();
    const before = await scrape();
    await Promise.all(Array.from({ length: 30 }, () => sql`select pg_sleep(0.05)`.execute(t.app.db)));
    const after = await scrape();
    const moved = (name: string) => sampleValue(after, name) - sampleValue(before, name);
    expect(moved('tollgate_db_pool_waits_total')).toBe(20);
    // Each of the 20 waited for at least one sleep to end.
    expect(moved('tollgate_db_pool_wait_seconds_total')).toBeGreaterThanOrEqual(20 * 0.04);
  });
});

describe('the request duration histogram', () => {
  it("writes what prom-client's Histogram writes for the same observations", async () => {
    const buckets = [0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10];
    const ours = new Registry();
    const theirs = new Registry();
    const durations = new RequestDurations(buckets, ours);
    const histogram = new Histogram({
      name: 'http_server_request_duration_seconds',
      help: 'Duration of HTTP server requests, by route, method and status.',
      labelNames: ['http_route', 'http_request_method', 'http_response_status_code'],
      buckets,
      registers: [theirs],
    });
    // Below the first bound, on bounds, between them, above the last; three label sets.
    const observations = [
      ['users.show', 'GET', 200, 0.00003],
      ['users.show', 'GET', 200, 0.005],
      ['users.show', 'GET', 200, 0.3],
      ['users.show', 'GET', 404, 10],
      ['', 'POST', 500, 42],
      ['users.show', 'GET', 200, 0.07],
    ] as const;
    for (const [route, method, status, seconds] of observations) {
      durations.observe(route, method, status, seconds);
      histogram.observe(
        { http_route: route, http_request_method: method, http_response_status_code: status },
        seconds,
      );
    }
    expect(await ours.metrics()).toBe(await theirs.metrics());
    ours.resetMetrics();
    expect(await ours.metrics()).toContain('# TYPE http_server_request_duration_seconds histogram');
    expect(await ours.metrics()).not.toContain('_count');
  });
});

describe('GET /metrics without METRICS_TOKEN', () => {
  it('is not there (404), and requests are not timed', async () => {
    const t = await createTestApp({ engine: ANY_ENGINE, providers: [observabilityProvider()] });
    try {
      const res = await t.request('/metrics', {
        headers: { authorization: 'Bearer anything', accept: 'application/json' },
      });
      expect(res.status).toBe(404);
      expect(t.app.router.requestObservers).toEqual([]);
    } finally {
      await t.close();
    }
  });
});

describe('METRICS_PORT', () => {
  it('serves /metrics on 127.0.0.1 without a token, nothing else, and stops with the application', async () => {
    const port = await freePort();
    const t = await createTestApp({
      engine: ANY_ENGINE,
      providers: [observabilityProvider()],
      config: { observability: { metrics: { port } } },
    });
    try {
      expect(await listenForMetrics(t.app)).toBe(port);
      const res = await fetch(`http://127.0.0.1:${port}/metrics`);
      expect(res.status).toBe(200);
      expect(await res.text()).toContain('# TYPE http_server_request_duration_seconds histogram');
      expect((await fetch(`http://127.0.0.1:${port}/ready`)).status).toBe(404);
      // The public app still wants the token, which is not set: 404 there.
      expect((await t.request('/metrics')).status).toBe(404);
    } finally {
      await t.close();
    }
    await expect(fetch(`http://127.0.0.1:${port}/metrics`)).rejects.toThrow();
  });
});
