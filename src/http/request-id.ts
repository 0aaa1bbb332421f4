import { randomUUID } from 'node:crypto';
import { headerOf } from './request-header.js';

/** An id a client or proxy may choose: short, and safe in a log line or a header. */
const CLIENT_ID = /^[A-Za-z0-9._:-]{1,128}$/;
/** W3C Trace Context `traceparent`: version-traceid-parentid-flags, lower-case hex. */
const TRACEPARENT = /^[0-9a-f]{2}-([0-9a-f]{32})-[0-9a-f]{16}-[0-9a-f]{2}$/;
const ZERO_TRACE = '0'.repeat(32);

/**
 * The request's id: the `X-Request-Id` a proxy or client sent (when it is a plain token), else the
 * trace id of its `traceparent` (so logs and traces name the request alike), else `traceId` (the
 * request's own trace, when traced), else a fresh UUID. Read from Node's raw headers where served by
 * `@hono/node-server` (`headerOf`): touching `request.headers` there builds the whole request.
 */
export function requestIdOf(request: Request, env: unknown, traceId?: string): string {
  const given = headerOf(request, env, 'x-request-id');
  if (given !== undefined && CLIENT_ID.test(given)) return given;
  const traceparent = headerOf(request, env, 'traceparent');
  const sent = traceparent === undefined ? undefined : TRACEPARENT.exec(traceparent.trim())?.[1];
  if (sent !== undefined && sent !== ZERO_TRACE) return sent;
  return traceId ?? randomUUID();
}

/** `response` answering to request `id` (`X-Request-Id`), copied once when its headers are immutable. */
export function withRequestIdHeader(response: Response, id: string): Response {
  try {
    response.headers.set('x-request-id', id);
    return response;
  } catch {
    const copy = new Response(response.body, response);
    copy.headers.set('x-request-id', id);
    return copy;
  }
}
