import { type Attributes, type Span, SpanKind, SpanStatusCode, type Tracer, trace } from '@opentelemetry/api';

/**
 * Spans go through the OpenTelemetry API; an SDK is loaded only when traces are exported
 * (`startTracing`, observability). Until then the code below checks one flag and runs the work
 * as it is, so tracing off costs a boolean test, not a no-op span per request or query.
 */
let enabled = false;
let current: Tracer | undefined;

/**
 * The tracer Tollgate's spans come from: the registered provider's, asked for again each time
 * tracing is enabled (the API's proxy tracer would keep the first provider's for good; a provider
 * may be replaced in tests).
 */
export function tracer(): Tracer {
  return current ?? trace.getTracer('tollgate');
}

/** Whether a tracer provider is registered and Tollgate records spans. */
export function tracingEnabled(): boolean {
  return enabled;
}

/** Called once a tracer provider is registered (`startTracing`); from then on spans are recorded. */
export function enableTracing(): void {
  enabled = true;
  current = trace.getTracer('tollgate');
}

/** Back to no spans (`stopTracing`). */
export function disableTracing(): void {
  enabled = false;
  current = undefined;
}

export interface SpanOptions {
  kind?: SpanKind;
  attributes?: Attributes;
}

/** Marks `span` failed by `err` (an exception event and an ERROR status). */
export function failSpan(span: Span, err: unknown): void {
  span.recordException(err instanceof Error ? err : String(err));
  span.setStatus({ code: SpanStatusCode.ERROR, message: err instanceof Error ? err.message : undefined });
}

/**
 * `fn` inside a span named `name`, child of the caller's active span, ended when `fn` settles (an
 * error marks it failed and is rethrown). With tracing off, `fn()` with no span at all.
 */
export function traced<T>(
  name: string,
  options: SpanOptions,
  fn: (span: Span | undefined) => Promise<T>,
): Promise<T> {
  if (!enabled) return fn(undefined);
  return tracer().startActiveSpan(
    name,
    { kind: options.kind ?? SpanKind.INTERNAL, ...options },
    async (span) => {
      try {
        return await fn(span);
      } catch (err) {
        failSpan(span, err);
        throw err;
      } finally {
        span.end();
      }
    },
  );
}

/**
 * `fn` in a span named `name`, child of the caller's active span, that nothing of ours runs under
 * (a statement: the driver's work): the span is not made the active context, which would cost an
 * async context and a `Context` per call. Ended when `fn` settles, as `traced`'s.
 */
export function tracedLeaf<T>(name: string, options: SpanOptions, fn: () => Promise<T>): Promise<T> {
  if (!enabled) return fn();
  return inLeafSpan(tracer().startSpan(name, { kind: SpanKind.INTERNAL, ...options }), fn);
}

async function inLeafSpan<T>(span: Span, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    failSpan(span, err);
    throw err;
  } finally {
    span.end();
  }
}

export { SpanKind };
