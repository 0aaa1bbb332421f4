import type { Kysely } from 'kysely';
import type { Clock } from '../../core/clock.js';
import type { TollgateConfig } from '../../core/config.js';
import { ClockKey, ConfigKey } from '../../core/keys.js';
import { DbKey } from '../../database/keys.js';
import type { Database } from '../../database/types.js';
import { OAuthError } from '../errors.js';
import { hashSecret, randomSecret } from '../secrets.js';

/** RFC 9126 §2.2: the `request_uri` is this prefix and a random reference. */
export const REQUEST_URI_PREFIX = 'urn:ietf:params:oauth:request_uri:';

/**
 * Pushed authorization requests (RFC 9126): stored under the digest of their reference, for
 * `oauth.pushedRequestTtlSeconds`, and taken once by the client that pushed them.
 */
export class PushedRequests {
  static inject = [DbKey, ClockKey, ConfigKey] as const;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly clock: Clock,
    private readonly config: TollgateConfig,
  ) {}

  async push(
    clientId: string,
    parameters: Readonly<Record<string, string>>,
  ): Promise<{ requestUri: string; expiresIn: number }> {
    const reference = randomSecret();
    const now = this.clock.now();
    const expiresIn = this.config.oauth.pushedRequestTtlSeconds;
    await this.db
      .insertInto('oauth_pushed_requests')
      .values({
        id: hashSecret(reference),
        client_id: clientId,
        parameters: JSON.stringify(parameters),
        used: 0,
        created_at: now.toISOString(),
        expires_at: new Date(now.getTime() + expiresIn * 1000).toISOString(),
      })
      .execute();
    return { requestUri: `${REQUEST_URI_PREFIX}${reference}`, expiresIn };
  }

  /**
   * The parameters pushed under `requestUri` by `clientId`, marked used (RFC 9126 §4: one use).
   * Unknown, another client's, expired or used before: `invalid_request`, shown to the user.
   */
  async take(clientId: string, requestUri: string): Promise<Record<string, string>> {
    const refused = (detail: string) =>
      OAuthError.invalidRequest('The request_uri is unknown, expired or was already used.', { detail });
    if (!requestUri.startsWith(REQUEST_URI_PREFIX)) throw refused('not a pushed request_uri');
    const id = hashSecret(requestUri.slice(REQUEST_URI_PREFIX.length));
    const now = this.clock.now().toISOString();
    const row = await this.db
      .selectFrom('oauth_pushed_requests')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirst();
    if (!row || row.client_id !== clientId) throw refused(`client ${clientId}: unknown request_uri`);
    if (row.expires_at <= now) throw refused(`client ${clientId}: expired request_uri`);
    // Compare and set: of two requests at once, one takes it.
    const result = await this.db
      .updateTable('oauth_pushed_requests')
      .set({ used: 1 })
      .where('id', '=', id)
      .where('used', '=', 0)
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) !== 1) throw refused(`client ${clientId}: request_uri used before`);
    return JSON.parse(row.parameters) as Record<string, string>;
  }
}
