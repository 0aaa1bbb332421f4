/** One line of the results table (and of `bench/results/latest.json`). */
export interface Row {
  readonly id: string;
  readonly scenario: string;
  readonly group: 'baseline' | 'peer' | 'tollgate' | 'routing';
  readonly database?: 'sqlite' | 'postgres';
  /** What one operation is: a request, an issued token, a full exchange, a verification. */
  readonly unit: string;
  readonly opsPerSecond?: number;
  readonly p50Ms?: number;
  readonly p99Ms?: number;
  readonly peakRssBytes?: number;
  /**
   * CPU time per operation of the process doing the work (all its threads), measured over the
   * same window. Steadier than a rate on a shared machine: neighbours slow the wall clock down,
   * not the work.
   */
  readonly cpuMsPerOp?: number;
  /** The row this one is divided by in the table's ratio column. */
  readonly baseline?: string;
  ratio?: number;
  /** Baseline CPU per operation ÷ this row's: the throughput ratio if both had a core each. */
  cpuRatio?: number;
  /** Non-2xx/3xx responses, connection errors and timeouts during the measured window. */
  readonly failures?: number;
  /** Responses by HTTP status over the measured window(s): a row that answers errors fast shows here. */
  readonly statuses?: Record<string, number>;
  /** Why the row has no figures (not built yet, failed to start). */
  readonly pending?: string;
  readonly note?: string;
  /** Every round's rate when the run had several (`BENCH_ROUNDS`); the row shows the best. */
  readonly rounds?: number[];
  /**
   * A paired row (measured in alternating windows with its baseline's server, `lib/paired.ts`):
   * each pair's rate ratio and per-CPU ratio. Its `ratio` and `cpuRatio` are their medians.
   */
  readonly pairedRatios?: number[];
  readonly pairedCpuRatios?: number[];
}

/** A ratio issue 9 (or DESIGN.md's quality bars) asks for, checked in the same run. */
export interface Target {
  readonly row: string;
  readonly baseline: string;
  readonly atLeast: number;
  readonly source: string;
  /**
   * `rate` (default): the row's rate ÷ the baseline row's. `ratio`: the rows' own ratios to their
   * baselines, divided. `paired`: the row's own ratio, measured against `baseline` pair by pair.
   */
  readonly metric?: 'rate' | 'ratio' | 'paired';
  /** A memory bound instead of a ratio: the row's peak RSS under load, in MiB (no baseline). */
  readonly atMostMiB?: number;
}

export interface TargetCheck extends Target {
  readonly ratio?: number;
  /** For an `atMostMiB` target: the row's peak RSS. */
  readonly peakMiB?: number;
  readonly pass?: boolean;
  /** The same comparison in operations per CPU-second. */
  readonly cpuRatio?: number;
  readonly cpuPass?: boolean;
}
