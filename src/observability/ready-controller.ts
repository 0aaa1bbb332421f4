import type { Context } from 'hono';
import { Application } from '../kernel/application.js';

/**
 * `GET /ready`: the readiness probe. 200 when every check passes (the database answers, its
 * migrations have run, Redis answers when configured, the signing keys load), else 503; either
 * way the checks by name, never why one failed (that is logged).
 */
export class ReadyController {
  static inject = [Application] as const;

  constructor(private readonly app: Application) {}

  async invoke(c: Context): Promise<Response> {
    const { ready, checks } = await this.app.readiness.report();
    c.header('Cache-Control', 'no-store');
    return c.json({ status: ready ? 'ready' : 'not ready', checks }, ready ? 200 : 503);
  }
}
