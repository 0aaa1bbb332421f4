import type { Context, MiddlewareHandler } from 'hono';
import { tooManyRequests, withRateLimitHeaders } from './http.js';
import type { RateLimit } from './rate-limit.js';

/**
 * Route middleware: one attempt of `limit` per request, counted for `subjectOf(c)` before the
 * handler runs; over the limit, a 429 with `Retry-After` and the `RateLimit` fields.
 */
export function throttle(limit: RateLimit, subjectOf: (c: Context) => string): MiddlewareHandler {
  return async function throttleRequests(c, next) {
    const result = await limit.consume(subjectOf(c));
    if (!result.allowed) throw tooManyRequests([result]);
    await next();
    const res = withRateLimitHeaders(c.res, [result]);
    if (res !== c.res) c.res = res;
  };
}
