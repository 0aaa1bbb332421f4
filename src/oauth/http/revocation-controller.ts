import type { Context } from 'hono';
import type { Clock } from '../../core/clock.js';
import { ClockKey, LoggerKey } from '../../core/keys.js';
import type { Logger } from '../../core/logger.js';
import { OAuthError } from '../errors.js';
import { isPublicClient } from '../records.js';
import { authenticateClient } from '../rules/authenticate-client.js';
import { type OAuthStore, OAuthStoreKey } from '../stores/contracts.js';
import { TokenInspector } from '../tokens/token-inspector.js';
import { noStore, oauthErrorResponse, readForm } from './respond.js';

/** `POST /oauth/revoke` (RFC 7009) and `POST /oauth/introspect` (RFC 7662), client-authenticated. */
export class RevocationController {
  static inject = [TokenInspector, OAuthStoreKey, LoggerKey, ClockKey] as const;

  constructor(
    private readonly inspector: TokenInspector,
    private readonly store: OAuthStore,
    private readonly logger: Logger,
    private readonly clock: Clock,
  ) {}

  async revoke(c: Context): Promise<Response> {
    try {
      const params = await readForm(c);
      const client = await authenticateClient(
        this.store.clients,
        {
          params,
          authorization: c.req.header('authorization'),
        },
        this.clock.now(),
      );
      if (!params.token) throw OAuthError.invalidRequest('The request is missing the "token" parameter.');
      await this.inspector.revoke(client, params.token, params.token_type_hint);
      return c.body(null, 200, noStore);
    } catch (err) {
      return oauthErrorResponse(c, err, this.logger);
    }
  }

  /**
   * RFC 7662 §2.1, §4: confidential clients only, each for its own tokens; clients marked as
   * resource servers for any access token (`TokenInspector.introspect`).
   */
  async introspect(c: Context): Promise<Response> {
    try {
      const params = await readForm(c);
      const client = await authenticateClient(
        this.store.clients,
        {
          params,
          authorization: c.req.header('authorization'),
        },
        this.clock.now(),
      );
      if (isPublicClient(client)) throw OAuthError.invalidClient('public clients may not introspect');
      if (!params.token) throw OAuthError.invalidRequest('The request is missing the "token" parameter.');
      return c.json(
        await this.inspector.introspect(client, params.token, params.token_type_hint),
        200,
        noStore,
      );
    } catch (err) {
      return oauthErrorResponse(c, err, this.logger);
    }
  }
}
