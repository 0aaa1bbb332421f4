import type { Kysely } from 'kysely';
import { DbKey } from '../../database/keys.js';
import type { Database } from '../../database/types.js';
import { type ClaimsRequest, readClaimsRequest, storedClaimsRequest } from './claims-request.js';

/**
 * The `claims` request (OpenID Connect Core §5.5) of the grant an access token was issued for,
 * read by the userinfo endpoint. Only tokens of requests with userinfo claims have a row; it goes
 * with its token (foreign key, cascade).
 */
export class AccessTokenClaims {
  static inject = [DbKey] as const;

  constructor(private readonly db: Kysely<Database>) {}

  async save(accessTokenId: string, request: ClaimsRequest | null | undefined): Promise<void> {
    if (!request?.userinfo) return;
    await this.db
      .insertInto('oauth_access_token_claims')
      .values({ access_token_id: accessTokenId, claims: storedClaimsRequest(request)! })
      .execute();
  }

  async find(accessTokenId: string): Promise<ClaimsRequest | null> {
    const row = await this.db
      .selectFrom('oauth_access_token_claims')
      .select('claims')
      .where('access_token_id', '=', accessTokenId)
      .executeTakeFirst();
    return readClaimsRequest(row?.claims);
  }
}
