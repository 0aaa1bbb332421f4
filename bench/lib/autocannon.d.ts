// The subset of autocannon 9's programmatic API the runner uses (the package ships no types).
declare module 'autocannon' {
  export interface AutocannonRequest {
    method?: string;
    path?: string;
    headers?: Record<string, string>;
    body?: string | Buffer;
    setupRequest?: (
      request: AutocannonRequest,
      context: Record<string, any>,
    ) => AutocannonRequest | undefined;
    onResponse?: (
      status: number,
      body: string,
      context: Record<string, any>,
      headers: Record<string, string | string[]>,
    ) => void;
  }

  export interface AutocannonOptions extends AutocannonRequest {
    url: string;
    connections?: number;
    pipelining?: number;
    duration?: number;
    /** Stop after this many requests (instead of `duration`). */
    amount?: number;
    timeout?: number;
    requests?: AutocannonRequest[];
    setupClient?: (client: Client) => void;
  }

  /** One connection. `requestIterator` is internal to autocannon 9 (see bench/lib/load.ts). */
  export interface Client {
    requestIterator: { initialContext: Record<string, any>; resetContext(): void; rebuildRequest(): void };
  }

  export interface Histogram {
    average: number;
    mean: number;
    stddev: number;
    min: number;
    max: number;
    total: number;
    p50: number;
    p90: number;
    p99: number;
    p99_9: number;
  }

  export interface Result {
    duration: number;
    errors: number;
    timeouts: number;
    non2xx: number;
    latency: Histogram;
    requests: Histogram;
    statusCodeStats: Record<string, { count: number }>;
  }

  export interface Instance {
    on(
      event: 'response',
      listener: (client: unknown, statusCode: number, bytes: number, responseTimeMs: number) => void,
    ): Instance;
  }

  function autocannon(
    options: AutocannonOptions,
    done: (error: Error | null, result: Result) => void,
  ): Instance;
  export default autocannon;
}
