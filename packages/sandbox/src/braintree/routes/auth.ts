import { timingSafeEqual } from 'node:crypto';
import type { Context, Next } from 'hono';
import type { Credentials } from '../domain/context.js';

function same(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

/**
 * The gateway authenticates with HTTP Basic `public_key:private_key`. Bad credentials are 401 (the SDK
 * throws `authenticationError`); good credentials on another merchant's path are 403
 * (`authorizationError`), see braintree/lib/braintree/http.js `checkHttpStatus`.
 */
export function basicAuth(credentials: Credentials) {
  return async function braintreeBasicAuth(c: Context, next: Next): Promise<Response | undefined> {
    const header = c.req.header('authorization') ?? '';
    const [scheme, encoded] = header.split(' ');
    const decoded =
      scheme?.toLowerCase() === 'basic' && encoded ? Buffer.from(encoded, 'base64').toString('utf8') : '';
    const colon = decoded.indexOf(':');
    const ok =
      colon > 0 &&
      same(decoded.slice(0, colon), credentials.publicKey) &&
      same(decoded.slice(colon + 1), credentials.privateKey);
    if (!ok) return new Response('', { status: 401 });
    if (c.req.param('merchantId') !== credentials.merchantId) return new Response('', { status: 403 });
    await next();
    return undefined;
  };
}
