import { Counter, collectDefaultMetrics, Gauge, Registry } from 'prom-client';
import type { ObservedRequest } from '../http/request-observer.js';
import type { Application } from '../kernel/application.js';
import { RateLimits } from '../rate-limits/rate-limits.js';
import { RequestDurations } from './request-durations.js';

/** OpenTelemetry's advice for `http.server.request.duration`, in seconds. */
const DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10];

/**
 * The service's Prometheus metrics, in a registry of its own (two applications in one process keep
 * two). Requests and events only move counters; what can be read on a scrape (rate-limit refusals,
 * the pool, Redis errors, the process) is read then.
 */
export class Metrics {
  readonly registry = new Registry();

  /** OpenTelemetry semantic conventions: `http.server.request.duration`, in Prometheus' spelling. */
  readonly httpDuration = new RequestDurations(DURATION_BUCKETS, this.registry);

  readonly tokensIssued = new Counter({
    name: 'tollgate_oauth_tokens_issued_total',
    help: 'Access tokens issued, by grant.',
    labelNames: ['grant'] as const,
    registers: [this.registry],
  });

  readonly payments = new Counter({
    name: 'tollgate_payments_total',
    help: "Payments the provider's webhooks reported, by outcome (succeeded, failed, requires_action).",
    labelNames: ['outcome'] as const,
    registers: [this.registry],
  });

  constructor(app: Application) {
    collectDefaultMetrics({ register: this.registry });
    const limits = app.container.make(RateLimits);
    new Counter({
      name: 'tollgate_rate_limit_refusals_total',
      help: 'Attempts refused by a rate limit or quota, by limit.',
      labelNames: ['limit'] as const,
      registers: [this.registry],
      collect() {
        this.reset();
        for (const limit of limits.all()) if (limit.refusals) this.inc({ limit: limit.name }, limit.refusals);
      },
    });
    new Counter({
      name: 'tollgate_redis_errors_total',
      help: 'Errors the Redis connection reported.',
      registers: [this.registry],
      collect() {
        this.reset();
        this.inc(limits.redisErrors);
      },
    });
    if (app.poolUsage()) {
      new Gauge({
        name: 'tollgate_db_pool_connections',
        help: 'PostgreSQL pool connections (total, idle) and queries waiting for one.',
        labelNames: ['state'] as const,
        registers: [this.registry],
        collect() {
          const usage = app.poolUsage()!;
          this.set({ state: 'total' }, usage.total);
          this.set({ state: 'idle' }, usage.idle);
          this.set({ state: 'waiting' }, usage.waiting);
        },
      });
      new Counter({
        name: 'tollgate_db_pool_waits_total',
        help: 'PostgreSQL queries that had to wait for a pool connection (all were busy).',
        registers: [this.registry],
        collect() {
          this.reset();
          this.inc(app.poolUsage()!.waits);
        },
      });
      new Counter({
        name: 'tollgate_db_pool_wait_seconds_total',
        help: 'Seconds PostgreSQL queries waited for a pool connection, in all.',
        registers: [this.registry],
        collect() {
          this.reset();
          this.inc(app.poolUsage()!.waitedSeconds);
        },
      });
    }
  }

  /** A `RequestObserver`: one observation of the request's duration. */
  observeRequest = (request: ObservedRequest): void => {
    this.httpDuration.observe(request.route ?? '', request.method, request.status, request.seconds);
  };

  /** The Prometheus text exposition. */
  async exposition(): Promise<{ contentType: string; body: string }> {
    return { contentType: this.registry.contentType, body: await this.registry.metrics() };
  }
}
