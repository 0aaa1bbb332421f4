import type { Context } from 'hono';
import type { VerifiedToken } from './verified-token.js';

/**
 * RFC 8707 / RFC 9068 §4: a token issued for a resource is refused under another configured
 * resource. A token issued for none (`aud` is its client) passes, as before resource indicators;
 * so does any token on a path no configured resource holds, and every token when no resources are
 * looked up (`resourceAt` absent). An unbound token costs one null check
 * (the request's path is read only for a bound one).
 */
export function meantForHere(
  resourceAt: ((path: string) => string | undefined) | undefined,
  c: Context,
  token: VerifiedToken,
): boolean {
  if (token.resource === null || resourceAt === undefined) return true;
  const here = resourceAt(c.req.path);
  return here === undefined || here === token.resource;
}
