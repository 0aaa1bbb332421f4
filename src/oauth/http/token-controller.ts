import type { Context } from 'hono';
import { LoggerKey } from '../../core/keys.js';
import type { Logger } from '../../core/logger.js';
import { TokenEndpoint } from '../grants/token-endpoint.js';
import { noStore, oauthErrorResponse, readForm } from './respond.js';

/** `POST /oauth/token` (RFC 6749 §3.2). */
export class TokenController {
  static inject = [TokenEndpoint, LoggerKey] as const;

  constructor(
    private readonly endpoint: TokenEndpoint,
    private readonly logger: Logger,
  ) {}

  async issue(c: Context): Promise<Response> {
    try {
      const body = await this.endpoint.handle({
        form: () => readForm(c),
        authorization: c.req.header('authorization'),
      });
      return c.json(body, 200, noStore);
    } catch (err) {
      return oauthErrorResponse(c, err, this.logger);
    }
  }
}
