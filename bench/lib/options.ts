/**
 * Run-wide knobs, all from the environment so `npm run bench` needs no arguments:
 *
 * - `BENCH_DURATION` seconds measured per scenario (default 5), `BENCH_WARMUP` seconds of
 *   discarded load before it (default 1); `BENCH_QUICK=1` makes both short for smoke tests.
 * - `BENCH_CONNECTIONS` concurrent keep-alive connections (default 10).
 * - `BENCH_ROUNDS` passes over the whole plan (default 1); each row keeps its best round.
 * - `BENCH_PAIRS` alternating windows per side for a paired row (default 20; 2 with `BENCH_QUICK`),
 *   `BENCH_PAIR_SECONDS` the length of each window (default 1; 0.5 with `BENCH_QUICK`).
 * - `BENCH_ONLY` a case-insensitive regular expression on scenario names.
 * - `BENCH_DATABASES` `sqlite,postgres` (default both); `BENCH_PG_URL` the server to create the
 *   throw-away database on (default `postgres://postgres@127.0.0.1:5432/postgres`).
 * - `BENCH_CPU_PROF` a scenario-name regular expression: those servers run with `--cpu-prof`
 *   and write their profile under `bench/results/profiles/`.
 * - `BENCH_PERF` a scenario-name regular expression: `perf record` follows those servers from
 *   ready to stop (on-CPU samples of every thread, `bench/results/perf/<scenario>/perf.data`;
 *   summarise with `npx tsx bench/perf-summary.ts`).
 * - `BENCH_SCALE_ROWS_SQLITE` / `BENCH_SCALE_ROWS_POSTGRES` access-token rows bulk-loaded for the
 *   at-scale rows (default 1,000,000 and 5,000,000; 100,000 each with `BENCH_QUICK`; 0 skips them).
 */
export interface BenchOptions {
  readonly quick: boolean;
  readonly durationSeconds: number;
  readonly warmupSeconds: number;
  readonly connections: number;
  readonly rounds: number;
  readonly pairs: number;
  readonly pairSeconds: number;
  readonly only: RegExp | undefined;
  readonly databases: readonly ('sqlite' | 'postgres')[];
  readonly pgUrl: string;
  readonly cpuProf: RegExp | undefined;
  readonly perf: RegExp | undefined;
  readonly scaleRows: { readonly sqlite: number; readonly postgres: number };
}

function seconds(value: string | undefined, fallback: number): number {
  if (value === undefined || value === '') return fallback;
  const parsed = Number(value);
  if (!Number.isFinite(parsed) || parsed < 0) throw new Error(`Not a number of seconds: ${value}`);
  return parsed;
}

export function benchOptions(env: NodeJS.ProcessEnv = process.env): BenchOptions {
  const quick = env.BENCH_QUICK === '1' || env.BENCH_QUICK === 'true';
  const databases = (env.BENCH_DATABASES ?? 'sqlite,postgres')
    .split(',')
    .map((name) => name.trim())
    .filter((name): name is 'sqlite' | 'postgres' => name === 'sqlite' || name === 'postgres');
  return {
    quick,
    durationSeconds: seconds(env.BENCH_DURATION, quick ? 1 : 5),
    warmupSeconds: seconds(env.BENCH_WARMUP, quick ? 0.5 : 1),
    connections: Math.max(1, Math.trunc(seconds(env.BENCH_CONNECTIONS, 10))),
    rounds: Math.max(1, Math.trunc(seconds(env.BENCH_ROUNDS, 1))),
    pairs: Math.max(1, Math.trunc(seconds(env.BENCH_PAIRS, quick ? 2 : 20))),
    pairSeconds: Math.max(0.1, seconds(env.BENCH_PAIR_SECONDS, quick ? 0.5 : 1)),
    only: env.BENCH_ONLY ? new RegExp(env.BENCH_ONLY, 'i') : undefined,
    databases,
    pgUrl: env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres',
    cpuProf: env.BENCH_CPU_PROF ? new RegExp(env.BENCH_CPU_PROF, 'i') : undefined,
    perf: env.BENCH_PERF ? new RegExp(env.BENCH_PERF, 'i') : undefined,
    scaleRows: {
      sqlite: Math.trunc(seconds(env.BENCH_SCALE_ROWS_SQLITE, quick ? 100_000 : 1_000_000)),
      postgres: Math.trunc(seconds(env.BENCH_SCALE_ROWS_POSTGRES, quick ? 100_000 : 5_000_000)),
    },
  };
}
