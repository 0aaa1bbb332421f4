import type { Context, MiddlewareHandler } from 'hono';
import { clientAddress } from '../../rate-limits/http.js';
import { throttle } from '../../rate-limits/middleware.js';
import type { RateLimit } from '../../rate-limits/rate-limit.js';
import type { MetadataDocumentClients } from '../cimd/metadata-document-clients.js';
import { formFields } from './form-fields.js';

/**
 * A request whose `client_id` (query or form) would make the server fetch a client metadata
 * document counts against `limit` for its address: without it, anyone could make the server send
 * GETs to any public URL as fast as they post to `/oauth/par` or `/oauth/token`, which need no
 * login for a public client. A cached document costs nothing and is not counted.
 */
export function throttleDocumentFetches(
  limit: RateLimit,
  documents: () => MetadataDocumentClients,
): MiddlewareHandler {
  const limited = throttle(limit, clientAddress);
  return async function throttleDocumentFetches(c, next) {
    const id = await presentedClientId(c);
    if (id === undefined || !documents().wouldFetch(id)) return next();
    return limited(c, next);
  };
}

async function presentedClientId(c: Context): Promise<string | undefined> {
  if (c.req.method === 'GET') return c.req.query('client_id');
  return (await formFields(c))?.get('client_id') ?? undefined;
}
