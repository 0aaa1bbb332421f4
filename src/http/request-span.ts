import {
  type Context,
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
  /**
   * The context the request runs in, its span active: what runs inside is its child (queries,
   * provider calls). Made when first asked: a request with no child span makes none.
   */
  readonly context: () => Context;
  /** Names the span by its route and records the status (a 5xx is an error), then ends it. */
  end(route: string | undefined, status: number): void;
  /** Records `err` (the request failed before answering), ends the span, and rethrows. */
  fail(err: unknown): never;
}

/** `url`'s path, unparsed: what `new URL(url).pathname` is for the absolute URL of a request. */
function pathOf(url: string): string {
  const start = url.indexOf('/', url.indexOf('://') + 3);
  if (start < 0) return '/';
  const end = url.indexOf('?', start);
  return end < 0 ? url.slice(start) : url.slice(start, end);
}

/**
 * OpenTelemetry's HTTP server conventions: `GET users.show`, with method, path, route and status.
 * The caller's context is extracted only when it sent a `traceparent` (without one there is no
 * parent to find), and the path is sliced from the URL, not parsed: a `new URL` per request cost
 * more than the rest of this function.
 */
export function startRequestSpan(request: Request): RequestSpan {
  const parent: Context =
    request.headers.get('traceparent') === null
      ? ROOT_CONTEXT
      : propagation.extract(ROOT_CONTEXT, request.headers, headerGetter);
  const method = request.method;
  const url = request.url;
  const span = tracer().startSpan(
    method,
    {
      kind: SpanKind.SERVER,
      attributes: {
        'http.request.method': method,
        'url.path': pathOf(url),
        'url.scheme': url.slice(0, url.indexOf(':')),
      },
    },
    parent,
  );
  return new ServerSpan(span, parent, method);
}

class ServerSpan implements RequestSpan {
  readonly traceId: string;

  constructor(
    readonly span: Span,
    private readonly parent: Context,
    private readonly method: string,
  ) {
    this.traceId = span.spanContext().traceId;
  }

  context = (): Context => trace.setSpan(this.parent, this.span);

  end(route: string | undefined, status: number): void {
    const span = this.span;
    if (route) {
      span.setAttribute('http.route', route);
      span.updateName(`${this.method} ${route}`);
    }
    span.setAttribute('http.response.status_code', status);
    if (status >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
    span.end();
  }

  fail = (err: unknown): never => {
    failSpan(this.span, err);
    this.span.end();
    throw err;
  };
}
