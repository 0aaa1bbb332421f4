import { InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { authProvider } from '../../src/auth/index.js';
import { Clients, installKeys, oauthProvider } from '../../src/oauth/index.js';
import { startTracing, stopTracing } from '../../src/observability/tracing.js';
import { ENGINES } from '../support/engines.js';
import { ADA, type Served, serveInstances } from './support.js';

// The statements a request ran, as the database spans record them (tracing on, spans in memory).
const exporter = new InMemorySpanExporter();
beforeAll(() => startTracing({ spanProcessors: [new SimpleSpanProcessor(exporter)] }));
afterAll(() => stopTracing());

const rateLimitStatements = () =>
  exporter
    .getFinishedSpans()
    .map((span) => String(span.attributes['db.query.text'] ?? ''))
    .filter((text) => text.includes('rate_limits'));

const roundTrips = () =>
  exporter
    .getFinishedSpans()
    .filter((span) => span.attributes['db.system.name'] !== undefined)
    .map((span) => span.name);

describe.each(ENGINES)('a successful password grant, counters in the database (%s)', (engine) => {
  let s: Served | undefined;
  afterEach(async () => {
    await s?.close();
    s = undefined;
  });

  it('counts the address and the account, reads the user, writes the token pair, then settles both in one statement', async () => {
    s = await serveInstances({
      engine,
      config: { redis: { url: '' }, oauth: { scopes: { 'check-status': 'Check status' } } },
      providers: () => [authProvider(), oauthProvider()],
      setup: (app) => {
        installKeys(app.config.storagePath, app.config.oauth.signingAlgorithm);
      },
    });
    const app = await s.apps[0]!.container.make(Clients).create({
      name: 'First-party app',
      redirect: '',
      password: true,
    });
    const authorization = `Basic ${Buffer.from(`${app.client.id}:${app.plainSecret}`).toString('base64')}`;
    const grant = (password: string) =>
      fetch(`${s!.servers[0]!.url}/oauth/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', authorization },
        body: new URLSearchParams({ grant_type: 'password', username: ADA.email, password }),
      });
    // The first answer makes the client's secret known to this instance: its own limits are skipped after.
    expect((await grant(ADA.password)).status).toBe(200);
    expect((await grant('wrong')).status).toBe(400);

    exporter.reset();
    expect((await grant(ADA.password)).status).toBe(200);
    expect(rateLimitStatements()).toHaveLength(3);
    // Every round trip, BEGIN and COMMIT included (their spans carry no text): on PostgreSQL the
    // token pair is one statement and opens no transaction (8 round trips before, 5 now).
    const tokenRows =
      engine === 'postgres'
        ? ['WITH oauth_access_tokens']
        : ['BEGIN', 'INSERT oauth_access_tokens', 'INSERT oauth_refresh_tokens', 'COMMIT'];
    expect(roundTrips()).toEqual([
      'INSERT rate_limits',
      'INSERT rate_limits',
      'SELECT users',
      ...tokenRows,
      'INSERT rate_limits',
    ]);

    // Settled: the account's failure is forgotten (no live row), the address has its attempt back
    // (only the failure counts), and no row was written for strikes the account never had.
    const now = s.clock.now().getTime();
    const live = (await s.apps[0]!.db.selectFrom('rate_limits').selectAll().execute()).filter(
      (row) => row.key.startsWith('login.') && Number(row.expire) > now,
    );
    expect(live.map((row) => [row.key.split(':')[0], row.points])).toEqual([['login.address', 1]]);
  });
});
