import {
  type Context,
  context,
  propagation,
  ROOT_CONTEXT,
  type Span,
  SpanKind,
  SpanStatusCode,
  type TextMapGetter,
  trace,
} from '@opentelemetry/api';
import { failSpan, tracer } from '../core/tracing.js';

const headerGetter: TextMapGetter<Headers> = {
  get: (headers, key) => headers.get(key) ?? undefined,
  keys: (headers) => [...headers.keys()],
};

/** The server span of one request, child of the caller's `traceparent` when it sent one. */
export interface RequestSpan {
  span: Span;
  traceId: string;
  /** The span as the active context: what runs inside is its child (queries, provider calls). */
  run<T>(fn: () => T): T;
  /** Names the span by its route and records the status (a 5xx is an error), then ends it. */
  end(route: string | undefined, status: number): void;
  /** Records `err` (the request failed before answering), ends the span, and rethrows. */
  fail(err: unknown): never;
}

/** OpenTelemetry's HTTP server conventions: `GET users.show`, with method, path, route and status. */
export function startRequestSpan(request: Request): RequestSpan {
  const parent: Context = propagation.extract(ROOT_CONTEXT, request.headers, headerGetter);
  const method = request.method;
  const url = new URL(request.url);
  const span = tracer().startSpan(
    method,
    {
      kind: SpanKind.SERVER,
      attributes: {
        'http.request.method': method,
        'url.path': url.pathname,
        'url.scheme': url.protocol.slice(0, -1),
      },
    },
    parent,
  );
  const active = trace.setSpan(parent, span);
  return {
    span,
    traceId: span.spanContext().traceId,
    run: (fn) => context.with(active, fn),
    end(route, status) {
      if (route) {
        span.setAttribute('http.route', route);
        span.updateName(`${method} ${route}`);
      }
      span.setAttribute('http.response.status_code', status);
      if (status >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
      span.end();
    },
    fail(err) {
      failSpan(span, err);
      span.end();
      throw err;
    },
  };
}
