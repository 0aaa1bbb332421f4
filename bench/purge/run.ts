// `npx tsx bench/purge/run.ts`: `tollgate purge` of BENCH_PURGE_ROWS (default 1,000,000) expired
// access-token rows on SQLite while the protected route (new token every request) is under load.
// Prints how long the purge took and the route's p50/p99 before and during it, in 2-second slices.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { startServer } from '../lib/child.js';
import { sqliteDatabase } from '../lib/databases.js';
import { drive, type LoadResult } from '../lib/load.js';
import { loadAverage } from '../lib/machine.js';
import { rotating } from '../lib/scenarios.js';

const rows = Number(process.env.BENCH_PURGE_ROWS ?? 1_000_000);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 10);
const slice = { connections, durationSeconds: 2, warmupSeconds: 0 };
const log = (line: string) => process.stderr.write(`${line}\n`);

const database = sqliteDatabase();
const env = {
  DATABASE_URL: database.url,
  STORAGE_PATH: database.storagePath,
  OAUTH_SIGNING_ALG: 'RS256',
  LOG_LEVEL: 'silent',
};
log(`load average ${loadAverage()} · loading ${rows.toLocaleString('en')} expired rows`);
const server = await startServer({
  script: 'servers/tollgate.ts',
  env: {
    ...env,
    BENCH_SCENARIO: 'protected_new',
    BENCH_TOKENS: '20000',
    BENCH_PRELOAD_ROWS: String(rows),
    BENCH_PRELOAD_EXPIRED: '1',
  },
  startTimeoutMs: 600_000,
});
const url = `http://127.0.0.1:${server.ready.port}`;
const fixtures = server.ready.fixtures as { path: string; tokens: string[] };
const load = { path: fixtures.path, requests: rotating(fixtures.path, fixtures.tokens) };

try {
  await drive(url, load, { ...slice, durationSeconds: 3 });
  const before: LoadResult[] = [];
  for (let i = 0; i < 3; i++) before.push(await drive(url, load, slice));

  const started = Date.now();
  const purge = spawn(
    process.execPath,
    [fileURLToPath(new URL('../../bin/tollgate.js', import.meta.url)), 'purge', '--expired', '--hours', '0'],
    { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'inherit'] },
  );
  let output = '';
  purge.stdout.on('data', (chunk) => {
    output += chunk;
  });
  const exited = new Promise<number | null>((done) => purge.on('exit', done));
  let finished = false;
  void exited.then(() => {
    finished = true;
  });
  const during: LoadResult[] = [];
  while (!finished) during.push(await drive(url, load, slice));
  const code = await exited;
  const seconds = (Date.now() - started) / 1000;
  if (code !== 0) throw new Error(`tollgate purge exited with ${code}`);

  const summary = (results: LoadResult[]) => {
    const p99s = results.map((r) => r.p99Ms);
    const rate = results.reduce((sum, r) => sum + r.opsPerSecond, 0) / results.length;
    return `${rate.toFixed(0)} req/s, p50 ${Math.max(...results.map((r) => r.p50Ms)).toFixed(2)} ms, p99 per slice ${p99s.map((p) => p.toFixed(1)).join(' / ')} ms (worst ${Math.max(...p99s).toFixed(1)})`;
  };
  process.stdout.write(
    [
      `tollgate purge: ${output.trim()}`,
      `${rows.toLocaleString('en')} expired rows purged in ${seconds.toFixed(1)} s (process start included)`,
      `protected route before: ${summary(before)}`,
      `protected route during: ${summary(during)}`,
      `load average after ${loadAverage()}`,
      '',
    ].join('\n'),
  );
} finally {
  await server.stop();
  await database.drop();
}
