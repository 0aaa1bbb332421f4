import type { Context } from 'hono';
import { socketAddress } from '../rate-limits/http.js';
import type { RequestOrigin } from './events.js';

/** The client's address (as the socket saw it) and browser, for the notices about account changes. */
export function requestOrigin(c: Context): RequestOrigin {
  const ip = socketAddress(c);
  const userAgent = c.req.header('user-agent')?.slice(0, 300);
  return { ...(ip ? { ip } : {}), ...(userAgent ? { userAgent } : {}) };
}
