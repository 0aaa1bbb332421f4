/**
 * Runs `operation` back to back for a fixed time, `concurrency` at a time, and reports
 * operations per second with per-operation latency percentiles. A warm-up run is discarded.
 */
export async function measureLoop(
  operation: () => Promise<unknown>,
  options: { seconds: number; warmupSeconds: number; concurrency: number },
): Promise<{ opsPerSecond: number; p50Ms: number; p99Ms: number; cpuMsPerOp: number }> {
  const run = async (seconds: number) => {
    const latencies: number[] = [];
    const started = performance.now();
    const deadline = started + seconds * 1000;
    const worker = async () => {
      while (performance.now() < deadline) {
        const t0 = performance.now();
        await operation();
        latencies.push(performance.now() - t0);
      }
    };
    await Promise.all(Array.from({ length: options.concurrency }, worker));
    return { latencies, elapsed: (performance.now() - started) / 1000 };
  };
  if (options.warmupSeconds > 0) await run(options.warmupSeconds);
  // Process CPU time covers every thread, so work done on libuv's pool counts too.
  const cpu = process.cpuUsage();
  const { latencies, elapsed } = await run(options.seconds);
  const used = process.cpuUsage(cpu);
  latencies.sort((a, b) => a - b);
  const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? 0;
  return {
    opsPerSecond: latencies.length / elapsed,
    p50Ms: at(0.5),
    p99Ms: at(0.99),
    cpuMsPerOp: (used.user + used.system) / 1000 / latencies.length,
  };
}

export function loopSettings(env: NodeJS.ProcessEnv = process.env) {
  return {
    seconds: Number(env.BENCH_DURATION ?? 5),
    warmupSeconds: Number(env.BENCH_WARMUP ?? 1),
  };
}
