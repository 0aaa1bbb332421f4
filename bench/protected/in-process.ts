// The reused-token protected route against the bare Hono route, both served in this process
// through @hono/node-server's own request listener (its lightweight Request; Node's
// ServerResponse, writing into memory instead of a socket), interleaved round by round; server
// CPU per request from `process.cpuUsage()`. No load generator and no socket share the two cores,
// so the difference between the routes is steadier here than in `bench/run.ts`.
//
//   npx tsx bench/protected/in-process.ts [rounds] [calls]      # this checkout's sources
//   npm run build:bench && BENCH_ROOTS=/tmp/before,. node build/bench/protected/in-process.js
//
// BENCH_ROOTS: checkouts built with `npm run build:bench` (their `dist/` and `build/app/`), all
// measured in the same process, interleaved: before and after a change, under the same
// neighbours. Compiled only: under tsx, `tollgate` would resolve to this checkout's sources for
// every root. DATABASE_URL picks the database (a temporary SQLite file per application if unset).
// BENCH_METERED=1 adds, per root, the same route with a plan declared, as the metered row of
// bench/run.ts serves it: a per-user rate limit the load never reaches, and metering.
// BENCH_OBSERVED=1 adds, per root, the route with metrics on (METRICS_TOKEN: the duration histogram)
// and, last, with tracing on (the SDK registered, spans dropped by the exporter), as the
// `*.metrics.*` and `*.tracing.*` rows of bench/run.ts serve it.
// BENCH_COLD_KB=8192 writes through that many KiB between two requests, as a socket server's
// kernel and HTTP code do, so each request finds the caches cold; each request is then timed on
// its own (wall clock, median per round) instead of CPU over the round. A tight loop keeps every
// object a route reads in cache and underrates a path that reads many: the metered route's
// overhead over the reused one read 1.3 µs with 1 KiB and 3.6 µs with 8 MiB (about 6 µs over HTTP,
// before session 27's cuts; docs/benchmarks.md).
import { mkdtempSync } from 'node:fs';
import { IncomingMessage, ServerResponse } from 'node:http';
import { Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { getRequestListener } from '@hono/node-server';
import { BatchSpanProcessor } from '@opentelemetry/sdk-trace-base';
import SQLite from 'better-sqlite3';
import { Hono } from 'hono';
import pg from 'pg';
import { median } from '../lib/median.js';

const rounds = Number(process.argv[2] ?? 8);
const calls = Number(process.argv[3] ?? 20_000);
const roots = process.env.BENCH_ROOTS?.split(',').map((root) => resolve(root)) ?? [undefined];
if (roots[0] !== undefined && import.meta.url.endsWith('.ts'))
  throw new Error('BENCH_ROOTS needs the compiled script: node build/bench/protected/in-process.js');
const databaseUrl = process.env.DATABASE_URL;
process.env.LOG_LEVEL = 'silent';

// Every statement either engine runs, counted: a cache hit should run none.
let statements = 0;
const statement = Object.getPrototypeOf(new SQLite(':memory:').prepare('select 1'));
for (const method of ['all', 'get', 'run', 'iterate'] as const) {
  const original = statement[method];
  statement[method] = function (this: unknown, ...args: unknown[]) {
    statements++;
    return original.apply(this, args);
  };
}
const pgQuery = pg.Client.prototype.query as (...args: unknown[]) => unknown;
pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
  statements++;
  return pgQuery.apply(this, args);
} as typeof pg.Client.prototype.query;

type Listener = (incoming: IncomingMessage, outgoing: ServerResponse) => Promise<unknown>;
interface Target {
  name: string;
  listener: Listener;
  incoming: IncomingMessage;
  /** Node's response class, as `listen()` serves (ServerResponse for the bare route). */
  outgoing: typeof ServerResponse;
}
const socket = new Socket();

/** A GET request as Node's HTTP server hands it over, read in full (reused: nothing reads a GET's body). */
function incomingFor(path: string, headers: Record<string, string>): IncomingMessage {
  const incoming = new IncomingMessage(socket);
  incoming.method = 'GET';
  incoming.url = path;
  incoming.headers = headers;
  incoming.rawHeaders = Object.entries(headers).flat();
  incoming.complete = true;
  incoming.push(null);
  return incoming;
}

const bare = new Hono();
bare.get('/bare', (c) => c.json({ ok: true }));

/** The plan of the `protected_metered` scenario of bench/servers/tollgate.ts. */
const METERED = { definitions: { free: { rateLimit: { requests: 1_000_000_000, per: 'minute' } } } };

type Variant = 'plain' | 'metered' | 'metrics' | 'tracing';

/** The reference service with the `protected` scenario of bench/servers/tollgate.ts, and its token. */
async function protectedRoute(root: string | undefined, variant: Variant = 'plain'): Promise<Target> {
  const metered = variant === 'metered';
  const load = (built: string, source: string) =>
    root === undefined ? import(source) : import(pathToFileURL(join(root, built)).href);
  const [{ createApp }, tollgate, oauth] = await Promise.all([
    load('build/app/bootstrap.js', '../../app/bootstrap.js'),
    load('dist/index.js', 'tollgate'),
    load('dist/oauth/index.js', 'tollgate/oauth'),
  ]);
  process.env.STORAGE_PATH = mkdtempSync(join(tmpdir(), 'tollgate-inproc-'));
  process.env.DATABASE_URL = databaseUrl ?? join(process.env.STORAGE_PATH, 'bench.sqlite');
  if (variant === 'metrics') process.env.METRICS_TOKEN = 'bench-metrics-token';
  if (variant === 'tracing') {
    await tollgate.startTracing({
      spanProcessors: [
        new BatchSpanProcessor({
          export: (_spans, done) => done({ code: 0 }), // ExportResultCode.SUCCESS
          shutdown: async () => {},
        }),
      ],
    });
  }
  const app = await createApp({ plans: metered ? METERED : { definitions: {} } });
  delete process.env.METRICS_TOKEN;
  const has = (name: string) => app.providers.some((provider: { name: string }) => provider.name === name);
  if (!has('auth')) await app.register(tollgate.authProvider());
  if (!has('oauth')) await app.register(tollgate.oauthProvider());
  await app.register({
    name: 'bench.routes',
    register: ({ router }: { router: any }) => {
      router
        .get('/bench/protected', (c: any) => c.json({ ok: true }))
        .middleware('auth:api', 'scopes:check-status');
    },
  });
  oauth.installKeys(app.config.storagePath, app.config.oauth.signingAlgorithm);
  await app.migrate();
  await app.boot();
  const user = await app.container
    .make(tollgate.Users)
    .create({ name: 'Bench', email: `bench-${process.pid}@example.test`, password: 'not used here' });
  await app.container
    .make(oauth.Clients)
    .create({ name: 'Personal Access Client', redirect: 'http://localhost', personalAccess: true });
  const { accessToken } = await app.container
    .make(oauth.PersonalAccessTokens)
    .create(user.id, 'bench', ['check-status']);
  return {
    name: `tollgate${variant === 'plain' ? '' : variant === 'metered' ? ' + plan + metering' : ` + ${variant}`}${root === undefined ? '' : ` ${root}`} (${app.engine})`,
    listener: getRequestListener(app.fetch) as Listener,
    outgoing: app.router.securityHeaders.serverResponse?.() ?? ServerResponse,
    incoming: incomingFor('/bench/protected', {
      host: '127.0.0.1:3000',
      accept: '*/*',
      authorization: `Bearer ${accessToken}`,
    }),
  };
}

const targets: Target[] = [
  {
    name: 'bare',
    listener: getRequestListener(bare.fetch) as Listener,
    outgoing: ServerResponse,
    incoming: incomingFor('/bare', { host: '127.0.0.1:3000', accept: '*/*' }),
  },
];
for (const root of roots) {
  targets.push(await protectedRoute(root));
  if (process.env.BENCH_METERED === '1') targets.push(await protectedRoute(root, 'metered'));
  if (process.env.BENCH_OBSERVED === '1') targets.push(await protectedRoute(root, 'metrics'));
}
// Tracing last: once the SDK is registered, the applications compiled after it trace their requests.
if (process.env.BENCH_OBSERVED === '1')
  for (const root of roots) targets.push(await protectedRoute(root, 'tracing'));

const coldKb = Number(process.env.BENCH_COLD_KB ?? 0);
const evictor = new Float64Array(coldKb * 128);
/** Writes one double per 64-byte line of `evictor`. */
function evictCaches(): void {
  for (let i = 0; i < evictor.length; i += 8) evictor[i]! += 1;
}

/** CPU microseconds per request over `n` requests; with BENCH_COLD_KB, the median request's. */
async function measure(target: Target, n: number): Promise<number> {
  if (coldKb > 0) return measureCold(target, n);
  const start = process.cpuUsage();
  for (let i = 0; i < n; i++) {
    const outgoing = new target.outgoing(target.incoming);
    await target.listener(target.incoming, outgoing);
    if (outgoing.statusCode !== 200) throw new Error(`${target.name} answered ${outgoing.statusCode}`);
  }
  const used = process.cpuUsage(start);
  return (used.user + used.system) / n;
}

async function measureCold(target: Target, n: number): Promise<number> {
  const times = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    evictCaches();
    const start = process.hrtime.bigint();
    const outgoing = new target.outgoing(target.incoming);
    await target.listener(target.incoming, outgoing);
    times[i] = Number(process.hrtime.bigint() - start) / 1000;
    if (outgoing.statusCode !== 200) throw new Error(`${target.name} answered ${outgoing.statusCode}`);
  }
  return times.sort()[n >> 1]!;
}

// Warm-up: every path optimised before anything is counted.
for (const target of targets) await measure(target, calls);

const times = targets.map(() => [] as number[]);
const before = statements;
for (let r = 0; r < rounds; r++) {
  // A different order each round, so a neighbour's burst does not always land on the same one.
  for (let k = 0; k < targets.length; k++) {
    const i = (k + r) % targets.length;
    times[i]!.push(await measure(targets[i]!, calls));
  }
}
const bareUs = median(times[0]!);
console.log(
  `${rounds} rounds × ${calls} requests each; median ${coldKb > 0 ? `wall time per request, caches cold (${coldKb} KiB written between requests)` : 'CPU per request'}:`,
);
for (const [i, target] of targets.entries()) {
  const us = median(times[i]!);
  const extra =
    i === 0 ? '' : `, +${median(times[i]!.map((t, r) => t - times[0]![r]!)).toFixed(2)} µs over bare`;
  console.log(`  ${target.name}: ${us.toFixed(2)} µs (${(bareUs / us).toFixed(2)}× bare${extra})`);
}
console.log(`database statements while measuring: ${statements - before}`);
process.exit(0);
