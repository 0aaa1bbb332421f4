/**
 * The line protocol between the runner and its child processes: a child prints one line
 * `BENCH_READY <json>` once it listens (or `BENCH_RESULT <json>` when it measured something
 * itself) on stdout. Everything else a child prints is ignored.
 */
export const READY = 'BENCH_READY ';
export const RESULT = 'BENCH_RESULT ';

/** What a server child announces: its port and the fixtures the load needs (tokens, clients). */
export interface ReadyMessage {
  readonly port: number;
  readonly fixtures?: Record<string, unknown>;
}

/** What an in-process measurement child reports: operations per second by name. */
export interface ResultMessage {
  readonly rates: Record<
    string,
    { readonly opsPerSecond: number; readonly p50Ms: number; readonly p99Ms: number }
  >;
}
