import type { Kysely } from 'kysely';
import { isPostgres } from '../../database/schema.js';
import type { Database } from '../../database/types.js';
import { readAmr, storedAmr } from '../oidc/amr.js';
import { readClaimsRequest, storedClaimsRequest } from '../oidc/claims-request.js';
import type { AccessTokenRecord, RefreshTokenRecord } from '../records.js';
import type { OAuthAccessTokenRow, OAuthRefreshTokenRow } from '../tables.js';
import type { RefreshTokenStore } from './contracts.js';
import {
  emptyRow as emptyAccessRow,
  insertAccessTokens,
  parametersOf,
  toAccessToken,
} from './kysely-access-tokens.js';
import { Precompiled } from './precompiled.js';

function toRefreshToken(row: OAuthRefreshTokenRow): RefreshTokenRecord {
  return {
    id: row.id,
    accessTokenId: row.access_token_id,
    familyId: row.family_id,
    revoked: row.revoked === 1,
    createdAt: row.created_at,
    expiresAt: row.expires_at,
    authTime: row.auth_time,
    ...(row.dpop_jkt ? { jkt: row.dpop_jkt } : {}),
    sid: row.sid ?? null,
    amr: readAmr(row.amr),
    claims: readClaimsRequest(row.claims),
  };
}

/** A refresh token's row; every column present, in the order of the precompiled insert's parameters. */
function rowOf(token: RefreshTokenRecord) {
  return {
    id: token.id,
    access_token_id: token.accessTokenId,
    family_id: token.familyId,
    revoked: token.revoked ? 1 : 0,
    created_at: token.createdAt,
    expires_at: token.expiresAt,
    auth_time: token.authTime ?? null,
    dpop_jkt: token.jkt ?? null,
    sid: token.sid ?? null,
    amr: storedAmr(token.amr),
    claims: storedClaimsRequest(token.claims),
  };
}

const emptyRow = rowOf({
  id: '',
  accessTokenId: '',
  familyId: '',
  revoked: false,
  createdAt: '',
  expiresAt: '',
  jkt: '',
});

// Compiled once (see Precompiled): every grant on a user's behalf inserts one.
const insertToken = new Precompiled<never>((db: Kysely<Database>) =>
  db.insertInto('oauth_refresh_tokens').values(emptyRow),
);

// PostgreSQL: the access token's insert as a data-modifying CTE of the refresh token's: one round
// trip for both rows, atomic without BEGIN and COMMIT when no transaction is open. The foreign key
// is checked at the statement's end, after both rows are in.
// Parameters: the access token's (`parametersOf`), then the refresh token's.
const insertPair = new Precompiled<never>((db: Kysely<Database>) =>
  db
    .with('access', (db) => db.insertInto('oauth_access_tokens').values(emptyAccessRow))
    .insertInto('oauth_refresh_tokens')
    .values(emptyRow),
);

// Parameters: revoked (1), id, revoked (0). Every refresh consumes one.
const consumeToken = new Precompiled<never>((db: Kysely<Database>) =>
  db.updateTable('oauth_refresh_tokens').set({ revoked: 1 }).where('id', '=', '').where('revoked', '=', 0),
);

// The refresh token's columns under a prefix, beside its access token's own: one row carries both.
const refreshColumns = [
  'id',
  'access_token_id',
  'family_id',
  'revoked',
  'created_at',
  'expires_at',
  'auth_time',
  'dpop_jkt',
  'sid',
  'amr',
  'claims',
] as const satisfies readonly (keyof OAuthRefreshTokenRow)[];

type JoinedRow = OAuthAccessTokenRow & {
  [K in keyof OAuthRefreshTokenRow as `r_${K}`]: OAuthRefreshTokenRow[K];
};

const findWithAccessToken = new Precompiled<JoinedRow>((db: Kysely<Database>) =>
  db
    .selectFrom('oauth_refresh_tokens as r')
    .innerJoin('oauth_access_tokens as a', 'a.id', 'r.access_token_id')
    .selectAll('a')
    .select(refreshColumns.map((column) => `r.${column} as r_${column}` as const))
    .where('r.id', '=', ''),
);

function toJoined(row: JoinedRow): { refreshToken: RefreshTokenRecord; accessToken: AccessTokenRecord } {
  const refresh = Object.fromEntries(refreshColumns.map((column) => [column, row[`r_${column}`]]));
  return { refreshToken: toRefreshToken(refresh as OAuthRefreshTokenRow), accessToken: toAccessToken(row) };
}

export class KyselyRefreshTokenStore implements RefreshTokenStore {
  constructor(private readonly db: Kysely<Database>) {}

  async insert(token: RefreshTokenRecord): Promise<void> {
    await insertToken.execute(this.db, Object.values(rowOf(token)));
  }

  async insertWithAccessToken(token: RefreshTokenRecord, accessToken: AccessTokenRecord): Promise<void> {
    if (isPostgres(this.db)) {
      await insertPair.execute(this.db, [...parametersOf(accessToken), ...Object.values(rowOf(token))]);
      return;
    }
    // SQLite has no data-modifying CTE: two inserts in a transaction (the one open, if any).
    const both = async (db: Kysely<Database>) => {
      await insertAccessTokens(db, [accessToken]);
      await insertToken.execute(db, Object.values(rowOf(token)));
    };
    if (this.db.isTransaction) await both(this.db);
    else await this.db.transaction().execute(both);
  }

  async find(id: string): Promise<RefreshTokenRecord | undefined> {
    const row = await this.db
      .selectFrom('oauth_refresh_tokens')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirst();
    return row ? toRefreshToken(row) : undefined;
  }

  async findWithAccessToken(
    id: string,
  ): Promise<{ refreshToken: RefreshTokenRecord; accessToken: AccessTokenRecord } | undefined> {
    const [row] = await findWithAccessToken.execute(this.db, [id]);
    return row ? toJoined(row) : undefined;
  }

  async findByAccessToken(accessTokenId: string): Promise<RefreshTokenRecord | undefined> {
    const row = await this.db
      .selectFrom('oauth_refresh_tokens')
      .selectAll()
      .where('access_token_id', '=', accessTokenId)
      .executeTakeFirst();
    return row ? toRefreshToken(row) : undefined;
  }

  async consume(id: string): Promise<boolean> {
    const result = await consumeToken.run(this.db, [1, id, 0]);
    return Number(result.numAffectedRows) === 1;
  }

  async revokeFamily(familyId: string): Promise<string[]> {
    const rows = await this.db
      .updateTable('oauth_refresh_tokens')
      .set({ revoked: 1 })
      .where('family_id', '=', familyId)
      .returning('access_token_id')
      .execute();
    return rows.map((r) => r.access_token_id);
  }

  async revokeForAccessTokens(accessTokenIds: readonly string[]): Promise<void> {
    if (accessTokenIds.length === 0) return;
    await this.db
      .updateTable('oauth_refresh_tokens')
      .set({ revoked: 1 })
      .where('access_token_id', 'in', accessTokenIds)
      .execute();
  }
}
