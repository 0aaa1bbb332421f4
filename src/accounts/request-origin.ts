import type { Context } from 'hono';
import { clientIp } from '../rate-limits/http.js';
import type { RequestOrigin } from './events.js';

/** The client's address (`clientIp()`) and browser, for the notices about account changes. */
export function requestOrigin(c: Context): RequestOrigin {
  const ip = clientIp();
  const userAgent = c.req.header('user-agent')?.slice(0, 300);
  return { ...(ip ? { ip } : {}), ...(userAgent ? { userAgent } : {}) };
}
