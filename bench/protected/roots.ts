// Two protected-route servers measured in pairs (bench/lib/paired.ts), each from a compiled
// checkout and a scenario of bench/servers/tollgate.ts, with the servers pinned to one CPU and
// the load to another: the difference a change makes, by rate and by server CPU per request,
// steadier than `bench/run.ts`'s rows on a two-core machine (its quartiles are printed).
//
//   npm run build:bench
//   npx tsx bench/protected/roots.ts <root>:<scenario> <root>:<scenario> [pairs] [seconds]
//   npx tsx bench/protected/roots.ts .:protected .:protected_metered 30 1      # the row's two routes
//   npx tsx bench/protected/roots.ts /tmp/before:protected_metered .:protected_metered
//
// A root is a checkout built with `npm run build:bench` (see docs/benchmarks.md for making one of
// an earlier commit). Each server gets its own SQLite file, or with BENCH_PG_URL (a PostgreSQL
// server's admin URL) its own throw-away database there. BENCH_SERVER_CPUS (default `1`) and
// BENCH_LOAD_CPUS (default `0`) say where each runs; `any` leaves it to the scheduler.
import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { startServer } from '../lib/child.js';
import { type BenchDatabase, postgresDatabase } from '../lib/databases.js';
import { median } from '../lib/median.js';
import { drivePair, type PairSide } from '../lib/paired.js';

const [first, second, pairsText = '30', secondsText = '1'] = process.argv.slice(2);
if (!first || !second)
  throw new Error('usage: roots.ts <root>:<scenario> <root>:<scenario> [pairs] [seconds]');
const pin = (cpus: string | undefined) => (cpus === 'any' ? undefined : cpus);
const serverCpus = pin(process.env.BENCH_SERVER_CPUS ?? '1');
const loadCpus = pin(process.env.BENCH_LOAD_CPUS ?? '0');
if (loadCpus !== undefined) spawnSync('taskset', ['-pc', loadCpus, String(process.pid)], { stdio: 'ignore' });

const folder = mkdtempSync(join(tmpdir(), 'tollgate-roots-'));
const pgUrl = process.env.BENCH_PG_URL;
const databases: BenchDatabase[] = [];
for (let i = 0; pgUrl && i < 2; i++) {
  databases.push(await postgresDatabase(pgUrl));
  await sleep(5); // its name holds the time in ms
}
const servers = await Promise.all(
  [first, second].map((spec, i) => {
    const [root = '.', scenario = 'protected'] = spec.split(':');
    return startServer({
      script: 'servers/tollgate.ts',
      root: resolve(root),
      cpus: serverCpus,
      env: {
        DATABASE_URL: databases[i]?.url ?? `sqlite:${join(folder, `${i}.sqlite`)}`,
        STORAGE_PATH: mkdtempSync(join(folder, 'keys-')),
        BENCH_SCENARIO: scenario,
        OAUTH_SIGNING_ALG: 'RS256',
        LOG_LEVEL: 'silent',
      },
    });
  }),
);
const sides: PairSide[] = servers.map((server) => {
  const fixtures = server.ready.fixtures as { path: string; tokens: string[] };
  return {
    url: `http://127.0.0.1:${server.ready.port}`,
    load: { path: fixtures.path, headers: { authorization: `Bearer ${fixtures.tokens[0]}` } },
    cpuMs: server.cpuMs,
  };
});
try {
  const result = await drivePair(sides[0]!, sides[1]!, {
    connections: 10,
    warmupSeconds: 2,
    windowSeconds: Number(secondsText),
    pairs: Number(pairsText),
  });
  const quartiles = (values: number[]) => {
    const sorted = [...values].sort((a, b) => a - b);
    const at = (q: number) => sorted[Math.floor((sorted.length - 1) * q)]!.toFixed(3);
    return `${median(values).toFixed(3)}× (quartiles ${at(0.25)}–${at(0.75)})`;
  };
  const cpuPerRequest = (runs: typeof result.baseline) =>
    median(runs.map((run) => (run.cpuMsPerOp ?? Number.NaN) * 1000)).toFixed(2);
  console.log(`${second} against ${first}, ${result.ratios.length} pairs of ${secondsText} s:`);
  console.log(`  by rate ${quartiles(result.ratios)}; per CPU ${quartiles(result.cpuRatios)}`);
  console.log(
    `  server CPU per request: ${cpuPerRequest(result.baseline)} µs against ${cpuPerRequest(result.subject)} µs`,
  );
} finally {
  await Promise.all(servers.map((server) => server.stop()));
  for (const database of databases) await database.drop();
}
