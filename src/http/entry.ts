import type { Hono } from 'hono';
import { type RequestScope, runInRequest } from '../core/request-context.js';
import { type BodyLimitTable, payloadTooLarge, unreadableBody, withinLimit } from './body-limit.js';
import { spoofMethod } from './method-spoofing.js';
import { requestIdOf, withRequestIdHeader } from './request-id.js';
import type { RequestObserver } from './request-observer.js';
import { type RequestSpan, startRequestSpan } from './request-span.js';
import { takesPresetHeaders } from './secure-response.js';
import type { SecurityHeaders } from './security-headers.js';
import { TrustedProxies } from './trusted-proxies.js';

type Fetch = Hono['fetch'];
type Env = Parameters<Fetch>[1];
type ExecutionCtx = Parameters<Fetch>[2];

/**
 * A request that may carry a body: bounded first, then — for a POST — method-spoofed, which may
 * read a form body, now known to be within its limit.
 */
async function admit(
  request: Request,
  limits: BodyLimitTable,
  route: (request: Request) => Response | Promise<Response>,
): Promise<Response> {
  const kind = limits.kindOf(request);
  const limit = limits.limits[kind];
  let admitted: Request;
  try {
    const bounded = await withinLimit(request, limit);
    if (!bounded) return payloadTooLarge(request, kind, limit);
    admitted = bounded.method === 'POST' ? await spoofMethod(bounded) : bounded;
  } catch {
    return unreadableBody(request, kind);
  }
  return route(admitted);
}

/**
 * The client's address — the one decision every use of it reads (`clientIp()`): the peer (an
 * IPv4-mapped one as IPv4; none in process), or behind a trusted proxy the client it names — and
 * the request's User-Agent.
 */
function originOf(
  request: Request,
  env: unknown,
  proxies: TrustedProxies,
): { ip?: string; userAgent?: string } {
  const socket = (env as { incoming?: { socket?: { remoteAddress?: string } } } | undefined)?.incoming
    ?.socket;
  const peer = socket?.remoteAddress?.replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/i, '');
  const ip = proxies.client(peer, request.headers.get('x-forwarded-for'));
  const userAgent = request.headers.get('user-agent')?.slice(0, 300);
  return { ...(ip ? { ip } : {}), ...(userAgent ? { userAgent } : {}) };
}

/**
 * Everything a request passes before the router, in one place: its id (`X-Request-Id`, in every
 * log line and error body written while it runs, and on its response), the default security headers
 * (on every response: pages, errors, the 404 page, JSON, assets), the body limit (413 before the
 * body is read), then method spoofing (which has to run before routing: Hono picks handlers by
 * verb). GET and HEAD cost a string comparison and the headers; their bodies are never read.
 */
export function guardEntry<T extends Hono<any, any, any>>(
  app: T,
  limits: BodyLimitTable,
  headers: SecurityHeaders,
  observers: readonly RequestObserver[] = [],
  traced = false,
  proxies: TrustedProxies = new TrustedProxies(),
): T {
  const inner: Fetch = app.fetch;
  const answer: Fetch = (request, env, executionCtx) => {
    const preset = headers.presetOn(env);
    const method = request.method;
    const res =
      method === 'GET' || method === 'HEAD'
        ? inner(request, env, executionCtx)
        : admit(request, limits, (r) => inner(r, env, executionCtx));
    if (preset) return res;
    return res instanceof Response ? headers.addTo(res) : res.then((r) => headers.addTo(r));
  };
  const observed = observers.length > 0;
  const serve = (request: Request, env: Env, executionCtx: ExecutionCtx, span?: RequestSpan) => {
    let origin: ReturnType<typeof originOf> | undefined;
    const context: RequestScope = {
      id: requestIdOf(request, env, span?.traceId),
      origin: () => {
        origin ??= originOf(request, env, proxies);
        return origin;
      },
    };
    const started = observed ? performance.now() : 0;
    const done = (res: Response) => {
      if (observed) {
        const seen = {
          method: request.method,
          route: context.route,
          status: res.status,
          seconds: (performance.now() - started) / 1000,
        };
        for (const observe of observers) observe(seen);
      }
      span?.end(context.route, res.status);
      // Served by `listen()`: the id goes with the status line, and the Response stays untouched.
      const outgoing = (env as { outgoing?: unknown } | undefined)?.outgoing;
      if (!takesPresetHeaders(outgoing)) return withRequestIdHeader(res, context.id);
      outgoing.requestId(context.id);
      return res;
    };
    // With tracing on, the request's span is the active context in the same store (one async
    // context, not two: observability/context-manager.ts).
    const res = runInRequest(context, () => answer(request, env, executionCtx), span?.context);
    if (res instanceof Response) return done(res);
    return span ? res.then(done, span.fail) : res.then(done);
  };
  app.fetch = traced
    ? (request, env, executionCtx) => serve(request, env, executionCtx, startRequestSpan(request))
    : (request, env, executionCtx) => serve(request, env, executionCtx);
  return app;
}
