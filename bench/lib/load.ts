import autocannon, { type AutocannonRequest, type Result } from 'autocannon';

export interface LoadSpec {
  readonly method?: string;
  readonly path: string;
  readonly headers?: Record<string, string>;
  readonly body?: string;
  /**
   * A sequence per connection (e.g. authorize, approve, token); replaces method/path/body. When
   * `tallied`, an operation is what the sequence reports through `tally()`, not a response.
   */
  readonly requests?: (tally: () => void) => AutocannonRequest[];
  readonly tallied?: boolean;
  /**
   * Per-connection starting context (e.g. its own session). autocannon resets a connection's
   * context to `initialContext` after each pass over `requests`, and only takes one for all
   * connections, so this sets it on each connection's request iterator (autocannon 9 internals).
   */
  readonly connectionContext?: (index: number) => Record<string, unknown>;
}

export interface LoadResult {
  readonly opsPerSecond: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  /** Responses with status ≥ 400, connection errors and timeouts. */
  readonly failures: number;
  readonly statuses: Record<string, number>;
  /** CPU milliseconds the server spent per operation in the measured window, when it was read. */
  readonly cpuMsPerOp?: number;
}

/**
 * autocannon's own histogram keeps whole milliseconds, too coarse for sub-millisecond routes:
 * the per-response times it emits are kept here at full resolution instead.
 */
function once(
  url: string,
  spec: LoadSpec,
  connections: number,
  seconds: number,
): Promise<{ result: Result; latencies: number[]; tallies: number }> {
  // autocannon takes the path from `url` or from a `requests` entry, not from a top-level
  // `path`; and it treats a key that is present but undefined as a value: pass only what is set.
  const request: AutocannonRequest = { method: spec.method ?? 'GET', path: spec.path };
  if (spec.headers) request.headers = spec.headers;
  if (spec.body !== undefined) request.body = spec.body;
  const latencies: number[] = [];
  let tallies = 0;
  let connection = 0;
  const { connectionContext } = spec;
  return new Promise((resolve, reject) => {
    const instance = autocannon(
      {
        url,
        connections,
        pipelining: 1,
        duration: seconds,
        timeout: 10,
        requests: spec.requests ? spec.requests(() => tallies++) : [request],
        ...(connectionContext
          ? {
              setupClient: (client) => {
                client.requestIterator.initialContext = connectionContext(connection++);
                client.requestIterator.resetContext();
                // The first request was built before this hook ran, with an empty context.
                client.requestIterator.rebuildRequest();
              },
            }
          : {}),
      },
      (error, result) => (error ? reject(error) : resolve({ result, latencies, tallies })),
    );
    instance.on('response', (_client, status, _bytes, ms) => {
      if (status < 400) latencies.push(ms);
    });
  });
}

function percentile(sorted: number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
}

/** Warm up (discarded), then measure for a fixed time over keep-alive connections. */
export async function drive(
  url: string,
  spec: LoadSpec,
  options: { connections: number; durationSeconds: number; warmupSeconds: number },
  /** The server's CPU time so far, in ms (all its threads); read around the measured window. */
  serverCpuMs?: () => number | undefined,
): Promise<LoadResult> {
  if (options.warmupSeconds > 0) await once(url, spec, options.connections, options.warmupSeconds);
  const cpuBefore = serverCpuMs?.();
  const { result, latencies, tallies } = await once(url, spec, options.connections, options.durationSeconds);
  const cpuAfter = serverCpuMs?.();
  latencies.sort((a, b) => a - b);
  const statuses: Record<string, number> = {};
  let ok = 0;
  let failed = result.errors + result.timeouts;
  for (const [code, { count }] of Object.entries(result.statusCodeStats)) {
    statuses[code] = count;
    if (Number(code) < 400) ok += count;
    else failed += count;
  }
  const operations = spec.tallied ? tallies : ok;
  const cpuMsPerOp =
    cpuBefore !== undefined && cpuAfter !== undefined && operations > 0
      ? (cpuAfter - cpuBefore) / operations
      : undefined;
  return {
    cpuMsPerOp,
    opsPerSecond: operations / result.duration,
    // With a sequence, a latency is one request's, not the whole operation's.
    p50Ms: percentile(latencies, 0.5),
    p99Ms: percentile(latencies, 0.99),
    failures: failed,
    statuses,
  };
}
