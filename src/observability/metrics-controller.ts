import { createHash, timingSafeEqual } from 'node:crypto';
import type { Context } from 'hono';
import type { TollgateConfig } from '../core/config.js';
import { Container } from '../core/container.js';
import { ConfigKey } from '../core/keys.js';
import { Metrics } from './metrics.js';

const digest = (text: string) => createHash('sha256').update(text).digest();

/** Whether `authorization` is `Bearer <token>`, compared in constant time. */
export function bearerMatches(authorization: string | undefined, token: string): boolean {
  const given = /^Bearer\s+(\S+)$/i.exec(authorization ?? '')?.[1];
  return given !== undefined && timingSafeEqual(digest(given), digest(token));
}

/**
 * `GET /metrics`: the Prometheus exposition, for `Authorization: Bearer <METRICS_TOKEN>` only.
 * Without a token configured it is not there (404); a wrong or missing token is a 401.
 */
export class MetricsController {
  static inject = [ConfigKey, Container] as const;

  constructor(
    private readonly config: TollgateConfig,
    private readonly container: Container,
  ) {}

  async invoke(c: Context): Promise<Response> {
    const token = this.config.observability.metrics.token;
    if (!token || !this.container.has(Metrics)) return c.json({ message: 'Not Found' }, 404);
    if (!bearerMatches(c.req.header('authorization'), token)) {
      c.header('WWW-Authenticate', 'Bearer realm="metrics"');
      return c.json({ message: 'Unauthenticated.' }, 401);
    }
    const { contentType, body } = await this.container.make(Metrics).exposition();
    return c.body(body, 200, { 'Content-Type': contentType, 'Cache-Control': 'no-store' });
  }
}
