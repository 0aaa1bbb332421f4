import { context, propagation, trace } from '@opentelemetry/api';
import type { SpanProcessor } from '@opentelemetry/sdk-trace-base';
import { disableTracing, enableTracing, tracingEnabled } from '../core/tracing.js';

export interface TracingOptions {
  /** Where spans go instead of OTLP (a test's in-memory exporter); given, tracing starts whatever the environment says. */
  spanProcessors?: SpanProcessor[];
}

export interface Tracing {
  /** Sends the spans not exported yet (the application's `close()` calls it). */
  flush(): Promise<void>;
  /** Flushes, then unregisters the SDK: Tollgate records no spans until `startTracing` again. */
  stop(): Promise<void>;
}

let started: Promise<Tracing> | undefined;

/** Whether the environment asks for OTLP export (the SDK's own variables). */
export function otlpConfigured(env: NodeJS.ProcessEnv = process.env): boolean {
  if (env.OTEL_SDK_DISABLED === 'true' || env.OTEL_TRACES_EXPORTER === 'none') return false;
  return Boolean(env.OTEL_EXPORTER_OTLP_ENDPOINT || env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT);
}

async function register(options: TracingOptions): Promise<Tracing> {
  // Loaded only now: with tracing off, no SDK module is in the process.
  const [{ NodeTracerProvider }, { BatchSpanProcessor }, resources, { RequestContextManager }] =
    await Promise.all([
      import('@opentelemetry/sdk-trace-node'),
      import('@opentelemetry/sdk-trace-base'),
      import('@opentelemetry/resources'),
      import('./context-manager.js'),
    ]);
  let spanProcessors = options.spanProcessors;
  if (!spanProcessors) {
    const { OTLPTraceExporter } = await import('@opentelemetry/exporter-trace-otlp-http');
    // The exporter reads OTEL_EXPORTER_OTLP_(TRACES_)ENDPOINT, _HEADERS, _TIMEOUT; the batch
    // processor OTEL_BSP_*; the provider OTEL_TRACES_SAMPLER(_ARG).
    spanProcessors = [new BatchSpanProcessor(new OTLPTraceExporter())];
  }
  const resource = resources
    .resourceFromAttributes({ 'service.name': 'tollgate' })
    .merge(resources.detectResources({ detectors: [resources.envDetector] }));
  const provider = new NodeTracerProvider({ resource, spanProcessors });
  provider.register({ contextManager: new RequestContextManager() });
  enableTracing();
  return {
    flush: () => provider.forceFlush(),
    async stop() {
      disableTracing();
      await provider.shutdown();
      trace.disable();
      context.disable();
      propagation.disable();
    },
  };
}

/**
 * Starts exporting traces when `OTEL_EXPORTER_OTLP_ENDPOINT` (or `…_TRACES_ENDPOINT`) is set:
 * loads the OpenTelemetry SDK, registers it for the process and turns Tollgate's spans on (HTTP
 * requests, queries, payment-provider calls, mail sends, webhooks). Without it nothing is loaded and
 * resolves `undefined`. Once per process: once started, later calls get the same `Tracing`.
 * `observabilityProvider()` calls it; call it yourself first to send spans elsewhere.
 */
export async function startTracing(options: TracingOptions = {}): Promise<Tracing | undefined> {
  if (!started && !options.spanProcessors && !otlpConfigured()) return undefined;
  started ??= register(options);
  return started;
}

/** Stops what `startTracing` started, if anything; the next `startTracing` starts afresh. */
export async function stopTracing(): Promise<void> {
  const tracing = await started;
  started = undefined;
  await tracing?.stop();
}

export { tracingEnabled };
