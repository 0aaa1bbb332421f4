import { randomUUID } from 'node:crypto';

/** An id a client or proxy may choose: short, and safe in a log line or a header. */
const CLIENT_ID = /^[A-Za-z0-9._:-]{1,128}$/;
/** W3C Trace Context `traceparent`: version-traceid-parentid-flags, lower-case hex. */
const TRACEPARENT = /^[0-9a-f]{2}-([0-9a-f]{32})-[0-9a-f]{16}-[0-9a-f]{2}$/;
const ZERO_TRACE = '0'.repeat(32);

/**
 * The request's id: the `X-Request-Id` a proxy or client sent (when it is a plain token), else the
 * trace id of its `traceparent` (so logs and traces name the request alike), else `traceId` (the
 * request's own trace, when traced), else a fresh UUID.
 */
export function requestIdOf(request: Request, traceId?: string): string {
  const given = request.headers.get('x-request-id');
  if (given !== null && CLIENT_ID.test(given)) return given;
  const traceparent = request.headers.get('traceparent');
  const sent = traceparent === null ? undefined : TRACEPARENT.exec(traceparent.trim())?.[1];
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
