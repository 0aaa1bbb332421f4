import { subscribe } from 'node:diagnostics_channel';
import type { ClientRequest, IncomingMessage } from 'node:http';
import { type Span, SpanKind, SpanStatusCode } from '@opentelemetry/api';
import { failSpan, tracer, tracingEnabled } from './tracing.js';

/** The API hosts whose calls are traced, by `Host` header (`api.stripe.com`, `127.0.0.1:12111`), and who answers there. */
const systems = new Map<string, string>();
const spans = new WeakMap<ClientRequest, Span>();
let subscribed = false;

/**
 * Puts each call to `host` in a client span, child of the caller's span, while tracing is on:
 * `host` as the request's `Host` header (with the port when not the protocol's default), `system`
 * the `tollgate.payment.provider` attribute. Node's HTTP client channels publish the request
 * when its body is ended, in the caller's async context, and its response when the headers arrive.
 * The call carries no `traceparent`: on Node 20 the headers are written before the channel
 * publishes, and a payment provider would not read one.
 */
export function traceHttpCalls(host: string, system: string): void {
  systems.set(host.toLowerCase(), system);
  if (subscribed) return;
  subscribed = true;
  subscribe('http.client.request.start', (message) => start((message as { request: ClientRequest }).request));
  subscribe('http.client.response.finish', (message) => {
    const { request, response } = message as { request: ClientRequest; response: IncomingMessage };
    finish(request, response.statusCode ?? 0);
  });
  subscribe('http.client.request.error', (message) => {
    const { request, error } = message as { request: ClientRequest; error: unknown };
    const span = take(request);
    if (!span) return;
    failSpan(span, error);
    span.end();
  });
}

/** The span of `request`, forgotten: a request ends once. */
function take(request: ClientRequest): Span | undefined {
  const span = spans.get(request);
  spans.delete(request);
  return span;
}

function start(request: ClientRequest): void {
  if (!tracingEnabled()) return;
  const host = String(request.getHeader('host') ?? '').toLowerCase();
  const system = systems.get(host);
  if (!system) return;
  const port = /:(\d+)$/.exec(host)?.[1];
  const span = tracer().startSpan(request.method, {
    kind: SpanKind.CLIENT,
    attributes: {
      'http.request.method': request.method,
      'server.address': request.host,
      'server.port': port ? Number(port) : request.protocol === 'https:' ? 443 : 80,
      'url.path': request.path.split('?')[0]!,
      'tollgate.payment.provider': system,
    },
  });
  spans.set(request, span);
}

function finish(request: ClientRequest, status: number): void {
  const span = take(request);
  if (!span) return;
  span.setAttribute('http.response.status_code', status);
  if (status >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
  span.end();
}

/** The `Host` header Node sends for `hostname` and `port` (the port only when not the protocol's default). */
export function hostHeader(hostname: string, port: string | number, ssl: boolean): string {
  return Number(port) === (ssl ? 443 : 80) || port === '' ? hostname : `${hostname}:${port}`;
}
