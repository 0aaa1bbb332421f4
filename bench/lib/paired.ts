import { drive, type LoadResult, type LoadSpec } from './load.js';

/** One server of a pair: where it listens, what to send it, and how to read its CPU time. */
export interface PairSide {
  readonly url: string;
  readonly load: LoadSpec;
  readonly cpuMs: () => number | undefined;
}

export interface PairOptions {
  readonly connections: number;
  readonly warmupSeconds: number;
  /** Length of each measured window. */
  readonly windowSeconds: number;
  /** Windows per side. */
  readonly pairs: number;
}

export interface PairResult {
  readonly baseline: LoadResult[];
  readonly subject: LoadResult[];
  /** Per pair: subject rate ÷ baseline rate. */
  readonly ratios: number[];
  /** Per pair: baseline CPU per operation ÷ subject's, when both were read. */
  readonly cpuRatios: number[];
}

/**
 * Two servers, both up, measured in short alternating windows (A B, B A, A B, …) so that whatever
 * else the machine is doing falls on both alike; each pair of neighbouring windows gives one
 * ratio. On a shared machine whose speed drifts by tens of percent within a minute, this is the
 * difference between the two servers rather than between two moments.
 */
export async function drivePair(
  baseline: PairSide,
  subject: PairSide,
  options: PairOptions,
): Promise<PairResult> {
  const window = {
    connections: options.connections,
    durationSeconds: options.windowSeconds,
    warmupSeconds: 0,
  };
  const measure = (side: PairSide) => drive(side.url, side.load, window, side.cpuMs);
  if (options.warmupSeconds > 0) {
    const warmup = { ...window, durationSeconds: options.warmupSeconds };
    await drive(baseline.url, baseline.load, warmup);
    await drive(subject.url, subject.load, warmup);
  }
  const result: PairResult = { baseline: [], subject: [], ratios: [], cpuRatios: [] };
  for (let pair = 0; pair < options.pairs; pair++) {
    const baselineFirst = pair % 2 === 0;
    const first = await measure(baselineFirst ? baseline : subject);
    const second = await measure(baselineFirst ? subject : baseline);
    const [base, sub] = baselineFirst ? [first, second] : [second, first];
    result.baseline.push(base);
    result.subject.push(sub);
    if (base.opsPerSecond > 0) result.ratios.push(sub.opsPerSecond / base.opsPerSecond);
    if (base.cpuMsPerOp !== undefined && sub.cpuMsPerOp)
      result.cpuRatios.push(base.cpuMsPerOp / sub.cpuMsPerOp);
  }
  return result;
}
