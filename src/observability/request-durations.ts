import type { Registry } from 'prom-client';

/** One (route, method, status)'s observations: how many fell in each bucket, their sum and count. */
interface Series {
  readonly labels: { http_route: string; http_request_method: string; http_response_status_code: number };
  readonly buckets: number[];
  sum: number;
  count: number;
}

/** A sample as prom-client's registry writes it: its own labels, then the series'. */
interface Sample {
  labels: Record<string, string | number>;
  sharedLabels?: Series['labels'];
  value: number;
  metricName: string;
}

interface Snapshot {
  name: string;
  help: string;
  type: string;
  aggregator: string;
  values: Sample[];
}

/**
 * `http_server_request_duration_seconds`, a histogram by route, method and status, counted on
 * every request for the cost of three map reads and a few additions. prom-client's `Histogram`
 * validates and hashes its labels into a string key on every `observe` (its bound `labels()` child
 * too), which was most of what metrics cost a cached request; this keeps one series per label set
 * found by nested maps, and gives the registry the same samples a `Histogram` would at a scrape.
 */
export class RequestDurations {
  readonly name = 'http_server_request_duration_seconds';
  readonly help = 'Duration of HTTP server requests, by route, method and status.';
  readonly type = 'histogram';
  readonly aggregator = 'sum';
  private routes = new Map<string, Map<string, Map<number, Series>>>();

  constructor(
    private readonly bounds: readonly number[],
    registry: Registry,
  ) {
    registry.registerMetric(this as never);
  }

  observe(route: string, method: string, status: number, seconds: number): void {
    const series = this.routes.get(route)?.get(method)?.get(status) ?? this.add(route, method, status);
    const bounds = this.bounds;
    let i = 0;
    while (i < bounds.length && seconds > bounds[i]!) i++;
    if (i < bounds.length) series.buckets[i]!++;
    series.sum += seconds;
    series.count++;
  }

  /** A new label set's series, empty. */
  private add(route: string, method: string, status: number): Series {
    const methods = this.routes.get(route) ?? new Map<string, Map<number, Series>>();
    this.routes.set(route, methods);
    const statuses = methods.get(method) ?? new Map<number, Series>();
    methods.set(method, statuses);
    const labels = { http_route: route, http_request_method: method, http_response_status_code: status };
    const series = { labels, buckets: this.bounds.map(() => 0), sum: 0, count: 0 };
    statuses.set(status, series);
    return series;
  }

  /** The samples prom-client's `Histogram` gives a scrape: cumulative buckets, `+Inf`, sum and count. */
  async getForPromString(): Promise<Snapshot> {
    const values: Sample[] = [];
    const bucket = `${this.name}_bucket`;
    for (const methods of this.routes.values())
      for (const statuses of methods.values())
        for (const { labels, buckets, sum, count } of statuses.values()) {
          let below = 0;
          buckets.forEach((n, i) => {
            below += n;
            values.push({
              labels: { le: this.bounds[i]! },
              sharedLabels: labels,
              value: below,
              metricName: bucket,
            });
          });
          values.push(
            { labels: { le: '+Inf' }, sharedLabels: labels, value: count, metricName: bucket },
            { labels: {}, sharedLabels: labels, value: sum, metricName: `${this.name}_sum` },
            { labels: {}, sharedLabels: labels, value: count, metricName: `${this.name}_count` },
          );
        }
    const { name, help, type, aggregator } = this;
    return { name, help, type, aggregator, values };
  }

  /** The same samples with each series' labels in its own (`getMetricsAsJSON`). */
  async get(): Promise<Snapshot> {
    const snapshot = await this.getForPromString();
    const values = snapshot.values.map(({ labels, sharedLabels, ...rest }) => ({
      ...rest,
      labels: { ...labels, ...sharedLabels },
    }));
    return { ...snapshot, values };
  }

  reset(): void {
    this.routes = new Map();
  }
}
