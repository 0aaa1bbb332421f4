import type { Context } from 'hono';
import type { RequestOrigin } from './events.js';

/** The client's address (as the socket saw it) and browser, for the notices about account changes. */
export function requestOrigin(c: Context): RequestOrigin {
  const env = c.env as { incoming?: { socket?: { remoteAddress?: string } } } | undefined;
  const address = env?.incoming?.socket?.remoteAddress;
  const ip = address?.replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/i, '');
  const userAgent = c.req.header('user-agent')?.slice(0, 300);
  return { ...(ip ? { ip } : {}), ...(userAgent ? { userAgent } : {}) };
}
