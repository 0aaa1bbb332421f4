import type { Kysely } from 'kysely';
import type { Database } from '../../database/types.js';
import type { AuthCodeRecord } from '../records.js';
import type { OAuthAuthCodeRow } from '../tables.js';
import type { AuthCodeStore } from './contracts.js';

function toAuthCode(row: OAuthAuthCodeRow): AuthCodeRecord {
  return {
    id: row.id,
    userId: row.user_id,
    clientId: row.client_id,
    scopes: JSON.parse(row.scopes) as string[],
    redirectUri: row.redirect_uri,
    codeChallenge: row.code_challenge,
    codeChallengeMethod: row.code_challenge_method as AuthCodeRecord['codeChallengeMethod'],
    revoked: row.revoked === 1,
    accessTokenId: row.access_token_id,
    createdAt: row.created_at,
    expiresAt: row.expires_at,
    nonce: row.nonce,
    authTime: row.auth_time,
    resource: row.resource,
    dpopJkt: row.dpop_jkt ?? null,
  };
}

export class KyselyAuthCodeStore implements AuthCodeStore {
  constructor(private readonly db: Kysely<Database>) {}

  async insert(code: AuthCodeRecord): Promise<void> {
    await this.db
      .insertInto('oauth_auth_codes')
      .values({
        id: code.id,
        user_id: code.userId,
        client_id: code.clientId,
        scopes: JSON.stringify(code.scopes),
        redirect_uri: code.redirectUri,
        code_challenge: code.codeChallenge,
        code_challenge_method: code.codeChallengeMethod,
        revoked: code.revoked ? 1 : 0,
        access_token_id: code.accessTokenId,
        created_at: code.createdAt,
        expires_at: code.expiresAt,
        nonce: code.nonce ?? null,
        auth_time: code.authTime ?? null,
        resource: code.resource ?? null,
        dpop_jkt: code.dpopJkt ?? null,
      })
      .execute();
  }

  async find(id: string): Promise<AuthCodeRecord | undefined> {
    const row = await this.db
      .selectFrom('oauth_auth_codes')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirst();
    return row ? toAuthCode(row) : undefined;
  }

  async consume(id: string, accessTokenId?: string): Promise<boolean> {
    const result = await this.db
      .updateTable('oauth_auth_codes')
      .set(accessTokenId === undefined ? { revoked: 1 } : { revoked: 1, access_token_id: accessTokenId })
      .where('id', '=', id)
      .where('revoked', '=', 0)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  async attachAccessToken(id: string, accessTokenId: string): Promise<void> {
    await this.db
      .updateTable('oauth_auth_codes')
      .set({ access_token_id: accessTokenId })
      .where('id', '=', id)
      .execute();
  }
}
