// `npm run bench`: every server in its own process, driven from here by autocannon over
// loopback, one table with ratios against baselines measured in the same run.
// Knobs: see lib/options.ts (BENCH_QUICK=1 for a smoke run).
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { compiledServers, type RunningChild, runMeasurement, startServer } from './lib/child.js';
import { type BenchDatabase, postgresDatabase, sqliteDatabase } from './lib/databases.js';
import { drive, type LoadResult } from './lib/load.js';
import { loadAverage, machineInfo } from './lib/machine.js';
import { medianOf } from './lib/median.js';
import { benchOptions } from './lib/options.js';
import { drivePair, type PairSide } from './lib/paired.js';
import { applyRatios, checkTargets, formatRows, formatTargets } from './lib/report.js';
import { runRouting } from './lib/routing.js';
import type { Row } from './lib/row.js';
import {
  atScale,
  baselines,
  floors,
  type HttpScenario,
  type LoopScenario,
  peers,
  type Scenario,
  targets,
  tollgate,
  userFlowPeers,
} from './lib/scenarios.js';

// The servers run compiled, as in production; BENCH_BUILD=0 runs them under tsx from the sources.
if (process.env.BENCH_BUILD !== '0') {
  process.stderr.write(
    'building (npm run build:bench; BENCH_BUILD=0 skips it and runs the servers under tsx)\n',
  );
  execFileSync('npm', ['run', '--silent', 'build:bench'], { stdio: ['ignore', 'ignore', 'inherit'] });
  process.env.BENCH_COMPILED = '1';
}

const options = benchOptions();
const resultsDir = fileURLToPath(new URL('./results/', import.meta.url));
const machine = machineInfo();
const log = (line: string) => process.stderr.write(`${line}\n`);

log(
  `Tollgate bench · ${machine.date} · commit ${machine.commit} · node ${machine.node} · ${machine.cores}× ${machine.cpu}`,
);
log(
  `load average ${machine.loadAverage} · ${options.durationSeconds}s measured after ${options.warmupSeconds}s warm-up · ${options.connections} connections · ${options.rounds} round(s) · servers ${compiledServers() ? 'compiled (build/bench)' : 'under tsx'}`,
);

log(
  Object.entries(machine.versions)
    .map(([name, version]) => `${name} ${version}`)
    .join(' · '),
);

const selected = (id: string) => !options.only || options.only.test(id);
/** The headline of a failure, with the child's own error line when its stderr has one. */
const first = (error: unknown) => {
  const lines = String((error as Error)?.message ?? error).split('\n');
  const cause = lines.find((line) => /^\w*Error\b/.test(line.trim()));
  return cause ? `${lines[0]}: ${cause.trim()}` : lines[0]!;
};
const oauthBuilt = existsSync(fileURLToPath(new URL('../src/oauth/index.ts', import.meta.url)));

/** A fresh `results/<kind>/<id>` folder when `wanted` selects the scenario. */
function resultDir(kind: string, wanted: RegExp | undefined, id: string): string | undefined {
  if (!wanted?.test(id)) return undefined;
  const dir = `${resultsDir}${kind}/${id}`;
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  return dir;
}

/** Starts a scenario's server: the child, where to send its load, and how to read its CPU. */
async function startScenario(
  scenario: HttpScenario,
  profileId = scenario.id,
): Promise<{ child: RunningChild; side: PairSide }> {
  const child = await startServer({
    script: scenario.script,
    env: { BENCH_CONNECTIONS: String(options.connections), ...scenario.env },
    cpuProfDir: resultDir('profiles', options.cpuProf, profileId),
    perfDir: resultDir('perf', options.perf, profileId),
    startTimeoutMs: scenario.startTimeoutMs,
  });
  const side = {
    url: `http://127.0.0.1:${child.ready.port}`,
    load: scenario.load(child.ready.fixtures ?? {}),
    cpuMs: () => child.cpuMs(),
  };
  return { child, side };
}

/** The row's identity: the scenario without what runs it. */
function metaOf(scenario: HttpScenario): Row {
  const {
    kind: _kind,
    load: _load,
    script: _script,
    env: _env,
    startTimeoutMs: _t,
    paired: _p,
    ...meta
  } = scenario;
  return meta;
}

async function runHttp(scenario: HttpScenario): Promise<Row> {
  let child: RunningChild | undefined;
  try {
    const started = await startScenario(scenario);
    child = started.child;
    const { url, load, cpuMs } = started.side;
    const result = await drive(url, load, options, cpuMs);
    return {
      ...metaOf(scenario),
      opsPerSecond: result.opsPerSecond,
      p50Ms: result.p50Ms,
      p99Ms: result.p99Ms,
      cpuMsPerOp: result.cpuMsPerOp,
      peakRssBytes: child.peakRss(),
      failures: result.failures,
      statuses: result.statuses,
      ...(result.failures ? { note: `statuses ${JSON.stringify(result.statuses)}` } : {}),
    };
  } catch (error) {
    return { ...metaOf(scenario), pending: first(error) };
  } finally {
    await child?.stop();
  }
}

/**
 * A paired row: its server and its baseline's, both up, measured in alternating windows
 * (`lib/paired.ts`). The row's rate and CPU are the median of its windows; its ratios are the
 * median of the pairs'.
 */
async function runPaired(scenario: HttpScenario, baseline: HttpScenario): Promise<Row> {
  const children: RunningChild[] = [];
  try {
    // One after the other: the second server finds the database migrated by the first.
    const base = await startScenario(baseline, `${baseline.id}.paired`);
    children.push(base.child);
    const subject = await startScenario(scenario);
    children.push(subject.child);
    const result = await drivePair(base.side, subject.side, {
      connections: options.connections,
      warmupSeconds: options.warmupSeconds,
      windowSeconds: options.pairSeconds,
      pairs: options.pairs,
    });
    const windows = result.subject;
    const of = (pick: (window: LoadResult) => number | undefined) => medianOf(windows.map(pick));
    const failures = windows.reduce((sum, window) => sum + window.failures, 0);
    return {
      ...metaOf(scenario),
      opsPerSecond: of((window) => window.opsPerSecond),
      p50Ms: of((window) => window.p50Ms),
      p99Ms: of((window) => window.p99Ms),
      cpuMsPerOp: of((window) => window.cpuMsPerOp),
      peakRssBytes: subject.child.peakRss(),
      failures,
      statuses: summed(windows.map((window) => window.statuses)),
      ratio: medianOf(result.ratios),
      cpuRatio: medianOf(result.cpuRatios),
      pairedRatios: result.ratios,
      pairedCpuRatios: result.cpuRatios,
      ...(failures ? { note: `statuses ${JSON.stringify(windows.map((window) => window.statuses))}` } : {}),
    };
  } catch (error) {
    return { ...metaOf(scenario), pending: first(error) };
  } finally {
    for (const child of children) await child.stop();
  }
}

function summed(counts: Record<string, number>[]): Record<string, number> {
  const total: Record<string, number> = {};
  for (const count of counts) {
    for (const [status, n] of Object.entries(count)) total[status] = (total[status] ?? 0) + n;
  }
  return total;
}

async function runLoop(scenario: LoopScenario): Promise<Row[]> {
  const env = {
    BENCH_DURATION: String(options.durationSeconds),
    BENCH_WARMUP: String(options.warmupSeconds),
    BENCH_CONNECTIONS: String(options.connections),
    ...scenario.env,
  };
  const rows = scenario.rows.filter((row) => selected(row.id));
  if (rows.length === 0) return [];
  try {
    const { result, peakRss } = await runMeasurement({ script: scenario.script, env });
    return rows.map(({ rate, ...row }) => ({ ...row, ...result.rates[rate], peakRssBytes: peakRss }));
  } catch (error) {
    return rows.map(({ rate: _rate, ...row }) => ({ ...row, pending: first(error) }));
  }
}

function runHttpScenario(scenario: HttpScenario): Promise<Row> {
  if (!scenario.paired) return runHttp(scenario);
  const baseline = plan.find(
    (other): other is HttpScenario => other.kind === 'http' && other.id === scenario.baseline,
  );
  if (baseline) return runPaired(scenario, baseline);
  return Promise.resolve({
    ...metaOf(scenario),
    pending: `its baseline ${scenario.baseline} is not in the run`,
  });
}

/** Runs one scenario and logs its rows as they come. */
async function runOne(scenario: Scenario): Promise<Row[]> {
  if (scenario.kind === 'http' && !selected(scenario.id)) return [];
  const produced = scenario.kind === 'http' ? [await runHttpScenario(scenario)] : await runLoop(scenario);
  for (const row of produced) {
    log(
      row.pending
        ? `  ${row.id}: pending (${row.pending})`
        : `  ${row.id}: ${row.opsPerSecond?.toFixed(0)} ${row.unit}${row.failures ? ` (${row.failures} errors)` : ''} · statuses ${JSON.stringify(row.statuses ?? {})}`,
    );
  }
  return produced;
}

/**
 * The best round of each row. Other processes on the machine can only take throughput away, so
 * the fastest of several rounds spread over the run is the closest to what the code can do;
 * every round's rate stays in the JSON.
 */
function best(samples: Row[]): Row {
  const measured = samples.filter((row) => row.opsPerSecond !== undefined);
  if (measured.length === 0) return samples[0]!;
  if (measured[0]!.pairedRatios) return pooled(measured);
  const top = measured.reduce((a, b) => (b.opsPerSecond! > a.opsPerSecond! ? b : a));
  const peak = Math.max(...measured.map((row) => row.peakRssBytes ?? 0));
  const cpu = measured.map((row) => row.cpuMsPerOp).filter((ms): ms is number => ms !== undefined);
  return {
    ...top,
    peakRssBytes: peak || undefined,
    cpuMsPerOp: cpu.length ? Math.min(...cpu) : undefined,
    ...(measured.length > 1 ? { rounds: measured.map((row) => row.opsPerSecond!) } : {}),
  };
}

/** A paired row over several rounds: the medians of every round's pairs together. */
function pooled(samples: Row[]): Row {
  const all = (pick: (row: Row) => number[] | undefined) => samples.flatMap((row) => pick(row) ?? []);
  const pairedRatios = all((row) => row.pairedRatios);
  const pairedCpuRatios = all((row) => row.pairedCpuRatios);
  return {
    ...samples[0]!,
    opsPerSecond: medianOf(samples.map((row) => row.opsPerSecond)),
    cpuMsPerOp: medianOf(samples.map((row) => row.cpuMsPerOp)),
    ratio: medianOf(pairedRatios),
    cpuRatio: medianOf(pairedCpuRatios),
    pairedRatios,
    pairedCpuRatios,
    ...(samples.length > 1 ? { rounds: samples.map((row) => row.opsPerSecond!) } : {}),
  };
}

async function openDatabase(engine: 'sqlite' | 'postgres'): Promise<BenchDatabase | string> {
  try {
    return engine === 'sqlite' ? sqliteDatabase() : await postgresDatabase(options.pgUrl);
  } catch (error) {
    return `no ${engine} database: ${first(error)}`;
  }
}

const plan: Scenario[] = [...baselines, ...peers];
const notRun: Row[] = [];
const databases: BenchDatabase[] = [];
const databaseVersions: string[] = [];
for (const engine of options.databases) {
  const database = await openDatabase(engine);
  if (typeof database !== 'string') databaseVersions.push(database.version);
  const url = typeof database === 'string' ? '' : database.url;
  const scenarios = [
    ...floors(engine, url),
    ...userFlowPeers(engine, url),
    ...tollgate(engine, url, typeof database === 'string' ? '' : database.storagePath),
  ];
  if (typeof database === 'string' || !oauthBuilt) {
    const pending = typeof database === 'string' ? database : 'src/oauth not built yet (issues 4 and 5)';
    for (const scenario of scenarios as HttpScenario[]) {
      if (selected(scenario.id)) notRun.push({ ...metaOf(scenario), pending });
    }
    if (typeof database !== 'string') await database.drop();
    continue;
  }
  databases.push(database);
  plan.push(...scenarios);
  // The at-scale rows get a database of their own: its bulk-loaded table must not slow the others.
  const rows = options.scaleRows[engine];
  const scaled =
    rows > 0
      ? atScale(engine, '', '', rows).filter((scenario) => selected((scenario as HttpScenario).id))
      : [];
  if (scaled.length > 0) {
    const big = await openDatabase(engine);
    if (typeof big === 'string') continue;
    databases.push(big);
    plan.push(...atScale(engine, big.url, big.storagePath, rows));
  }
}

const samples = new Map<string, Row[]>();
try {
  for (let round = 1; round <= options.rounds; round++) {
    if (options.rounds > 1) log(`round ${round} of ${options.rounds} · load average ${loadAverage()}`);
    for (const scenario of plan) {
      for (const row of await runOne(scenario)) samples.set(row.id, [...(samples.get(row.id) ?? []), row]);
    }
  }
} finally {
  for (const database of databases) await database.drop();
}
const rows: Row[] = [...[...samples.values()].map(best), ...notRun];
rows.push(...(await runRouting(options, selected)));

applyRatios(rows);
const checks = checkTargets(rows, targets);
const loadAfter = loadAverage();

process.stdout.write(
  `\n${formatRows(rows)}\n\nTargets (issues 5, 9, 15 and 35, DESIGN.md quality bars), same run:\n\n${formatTargets(checks)}\n\n`,
);
const pending = rows.filter((row) => row.pending).map((row) => row.id);
if (pending.length) process.stdout.write(`Pending rows: ${pending.join(', ')}\n`);
process.stdout.write(`Databases: ${databaseVersions.join(', ') || 'none'}.\n`);
process.stdout.write(`Load average before ${machine.loadAverage}, after ${loadAfter}.\n`);

mkdirSync(resultsDir, { recursive: true });
writeFileSync(
  `${resultsDir}latest.json`,
  `${JSON.stringify({ machine: { ...machine, loadAverageAfter: loadAfter, databases: databaseVersions }, options: { ...options, only: options.only?.source, cpuProf: options.cpuProf?.source, perf: options.perf?.source }, rows, targets: checks }, null, 2)}\n`,
);
log(`wrote ${resultsDir}latest.json`);
