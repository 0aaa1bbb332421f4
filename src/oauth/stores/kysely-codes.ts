import { type Kysely, sql } from 'kysely';
import type { Database } from '../../database/types.js';
import { readAmr, storedAmr } from '../oidc/amr.js';
import { readClaimsRequest, storedClaimsRequest } from '../oidc/claims-request.js';
import type { AuthCodeRecord } from '../records.js';
import type { OAuthAuthCodeRow } from '../tables.js';
import type { AuthCodeStore } from './contracts.js';
import { Precompiled } from './precompiled.js';

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
    sid: row.sid ?? null,
    amr: readAmr(row.amr),
    claims: readClaimsRequest(row.claims),
  };
}

/** A code's row; every column present, in the order of the precompiled insert's parameters. */
function rowOf(code: AuthCodeRecord) {
  return {
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
    sid: code.sid ?? null,
    amr: storedAmr(code.amr),
    claims: storedClaimsRequest(code.claims),
  };
}

// The columns of the insert, in the order of its parameters.
const codeColumns = Object.keys(
  rowOf({
    id: '',
    userId: 0,
    clientId: '',
    scopes: [],
    redirectUri: '',
    codeChallenge: '',
    codeChallengeMethod: 'S256',
    revoked: false,
    accessTokenId: '',
    createdAt: '',
    expiresAt: '',
  }),
) as (keyof OAuthAuthCodeRow & string)[];

// The authorization-code flow's own queries, compiled once (see Precompiled). The insert takes
// its one row from the client's, so a revoked or deleted client gets none. Parameters: the
// code's columns, then the client's id and revoked (0).
const insertCode = new Precompiled<never>((db: Kysely<Database>) =>
  db
    .insertInto('oauth_auth_codes')
    .columns(codeColumns)
    .expression(
      db
        .selectFrom('oauth_clients')
        .select(codeColumns.map((column) => sql.val<unknown>(null).as(column)))
        .where('id', '=', '')
        .where('revoked', '=', 0),
    ),
);
const findCode = new Precompiled<OAuthAuthCodeRow>((db: Kysely<Database>) =>
  db.selectFrom('oauth_auth_codes').selectAll().where('id', '=', ''),
);
// Parameters: revoked (1), access_token_id, id, revoked (0).
const consumeCode = new Precompiled<never>((db: Kysely<Database>) =>
  db
    .updateTable('oauth_auth_codes')
    .set({ revoked: 1, access_token_id: '' })
    .where('id', '=', '')
    .where('revoked', '=', 0),
);

export class KyselyAuthCodeStore implements AuthCodeStore {
  constructor(private readonly db: Kysely<Database>) {}

  async insert(code: AuthCodeRecord): Promise<boolean> {
    const result = await insertCode.run(this.db, [...Object.values(rowOf(code)), code.clientId, 0]);
    return Number(result.numAffectedRows) === 1;
  }

  async find(id: string): Promise<AuthCodeRecord | undefined> {
    const [row] = await findCode.execute(this.db, [id]);
    return row ? toAuthCode(row) : undefined;
  }

  async consume(id: string, accessTokenId?: string): Promise<boolean> {
    if (accessTokenId !== undefined) {
      const result = await consumeCode.run(this.db, [1, accessTokenId, id, 0]);
      return Number(result.numAffectedRows) === 1;
    }
    const result = await this.db
      .updateTable('oauth_auth_codes')
      .set({ revoked: 1 })
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
