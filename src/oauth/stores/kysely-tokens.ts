import type { Kysely } from 'kysely';
import type { Database } from '../../database/types.js';
import type { AccessTokenRecord, AccessTokenWithClient, RefreshTokenRecord } from '../records.js';
import type { OAuthAccessTokenRow, OAuthRefreshTokenRow } from '../tables.js';
import type { AccessTokenStore, RefreshTokenStore } from './contracts.js';
import { toClient } from './kysely-clients.js';
import { Precompiled } from './precompiled.js';

function toAccessToken(row: OAuthAccessTokenRow): AccessTokenRecord {
  return {
    id: row.id,
    userId: row.user_id,
    clientId: row.client_id,
    name: row.name,
    scopes: JSON.parse(row.scopes) as string[],
    revoked: row.revoked === 1,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    expiresAt: row.expires_at,
  };
}

// The client's columns under a prefix, so one row carries both records.
const clientColumns = [
  'c.id as c_id',
  'c.user_id as c_user_id',
  'c.name as c_name',
  'c.secret as c_secret',
  'c.redirect as c_redirect',
  'c.personal_access_client as c_personal_access_client',
  'c.password_client as c_password_client',
  'c.revoked as c_revoked',
  'c.created_at as c_created_at',
  'c.updated_at as c_updated_at',
] as const;

type JoinedRow = OAuthAccessTokenRow & Record<`c_${string}`, unknown>;

function toTokenWithClient(row: JoinedRow): AccessTokenWithClient {
  const client = toClient({
    id: row.c_id as string,
    user_id: row.c_user_id as number | null,
    name: row.c_name as string,
    secret: row.c_secret as string | null,
    redirect: row.c_redirect as string,
    personal_access_client: row.c_personal_access_client as number,
    password_client: row.c_password_client as number,
    revoked: row.c_revoked as number,
    created_at: row.c_created_at as string,
    updated_at: row.c_updated_at as string,
  });
  return { ...toAccessToken(row), client };
}

// Column order of the precompiled insert; the parameters below follow it.
const insertAccessToken = new Precompiled<never>((db: Kysely<Database>) =>
  db.insertInto('oauth_access_tokens').values({
    id: '',
    user_id: 0,
    client_id: '',
    name: '',
    scopes: '',
    revoked: 0,
    created_at: '',
    updated_at: '',
    expires_at: '',
  }),
);

const findWithClient = new Precompiled<JoinedRow>((db: Kysely<Database>) =>
  db
    .selectFrom('oauth_access_tokens as t')
    .innerJoin('oauth_clients as c', 'c.id', 't.client_id')
    .selectAll('t')
    .select(clientColumns)
    .where('t.id', '=', ''),
);

export class KyselyAccessTokenStore implements AccessTokenStore {
  constructor(private readonly db: Kysely<Database>) {}

  async insert(token: AccessTokenRecord): Promise<void> {
    await insertAccessToken.execute(this.db, [
      token.id,
      token.userId,
      token.clientId,
      token.name,
      JSON.stringify(token.scopes),
      token.revoked ? 1 : 0,
      token.createdAt,
      token.updatedAt,
      token.expiresAt,
    ]);
  }

  async find(id: string): Promise<AccessTokenRecord | undefined> {
    const row = await this.db
      .selectFrom('oauth_access_tokens')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirst();
    return row ? toAccessToken(row) : undefined;
  }

  async findWithClient(id: string): Promise<AccessTokenWithClient | undefined> {
    const [row] = await findWithClient.execute(this.db, [id]);
    return row ? toTokenWithClient(row) : undefined;
  }

  async forUser(
    userId: number,
    filter: { personal?: boolean; now: string },
  ): Promise<AccessTokenWithClient[]> {
    const rows = await this.db
      .selectFrom('oauth_access_tokens as t')
      .innerJoin('oauth_clients as c', 'c.id', 't.client_id')
      .selectAll('t')
      .select(clientColumns)
      .where('t.user_id', '=', userId)
      .where('t.revoked', '=', 0)
      .where('t.expires_at', '>', filter.now)
      .$if(filter.personal !== undefined, (q) =>
        q.where('c.personal_access_client', '=', filter.personal ? 1 : 0),
      )
      .orderBy('t.created_at', 'desc')
      .orderBy('t.id')
      .execute();
    return rows.map((row) => toTokenWithClient(row as JoinedRow));
  }

  async revoke(ids: readonly string[], now: string): Promise<string[]> {
    if (ids.length === 0) return [];
    const rows = await this.db
      .updateTable('oauth_access_tokens')
      .set({ revoked: 1, updated_at: now })
      .where('id', 'in', ids)
      .where('revoked', '=', 0)
      .returning('id')
      .execute();
    return rows.map((r) => r.id);
  }

  async revokeForClient(clientId: string, now: string): Promise<string[]> {
    const rows = await this.db
      .updateTable('oauth_access_tokens')
      .set({ revoked: 1, updated_at: now })
      .where('client_id', '=', clientId)
      .where('revoked', '=', 0)
      .returning('id')
      .execute();
    return rows.map((r) => r.id);
  }
}

function toRefreshToken(row: OAuthRefreshTokenRow): RefreshTokenRecord {
  return {
    id: row.id,
    accessTokenId: row.access_token_id,
    familyId: row.family_id,
    revoked: row.revoked === 1,
    createdAt: row.created_at,
    expiresAt: row.expires_at,
  };
}

export class KyselyRefreshTokenStore implements RefreshTokenStore {
  constructor(private readonly db: Kysely<Database>) {}

  async insert(token: RefreshTokenRecord): Promise<void> {
    await this.db
      .insertInto('oauth_refresh_tokens')
      .values({
        id: token.id,
        access_token_id: token.accessTokenId,
        family_id: token.familyId,
        revoked: token.revoked ? 1 : 0,
        created_at: token.createdAt,
        expires_at: token.expiresAt,
      })
      .execute();
  }

  async find(id: string): Promise<RefreshTokenRecord | undefined> {
    const row = await this.db
      .selectFrom('oauth_refresh_tokens')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirst();
    return row ? toRefreshToken(row) : undefined;
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
    const result = await this.db
      .updateTable('oauth_refresh_tokens')
      .set({ revoked: 1 })
      .where('id', '=', id)
      .where('revoked', '=', 0)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
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
