import type { Kysely } from 'kysely';
import type { Database } from '../../database/types.js';
import { type AccessTokenRecord, type AccessTokenWithClient, isRecordId } from '../records.js';
import type { OAuthAccessTokenRow } from '../tables.js';
import type { AccessTokenStore } from './contracts.js';
import { InsertBatch } from './insert-batch.js';
import { toClient } from './kysely-clients.js';
import { Precompiled } from './precompiled.js';

export function toAccessToken(row: OAuthAccessTokenRow): AccessTokenRecord {
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
    kid: row.kid,
    audience: row.audience,
    ...(row.organization_id != null ? { organizationId: row.organization_id } : {}),
    ...(row.last_used_at ? { lastUsedAt: row.last_used_at } : {}),
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
  'c.first_party as c_first_party',
  'c.scopes as c_scopes',
  'c.grant_types as c_grant_types',
  'c.resource_server as c_resource_server',
  'c.require_pushed_authorization_requests as c_require_par',
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
    first_party: row.c_first_party as number,
    scopes: row.c_scopes as string | null,
    grant_types: row.c_grant_types as string | null,
    resource_server: row.c_resource_server as number,
    require_pushed_authorization_requests: row.c_require_par as number,
    dpop_bound_access_tokens: undefined,
    previous_secret: undefined,
    previous_secret_expires_at: undefined,
    last_used_at: undefined,
    organization_id: undefined,
    revoked: row.c_revoked as number,
    created_at: row.c_created_at as string,
    updated_at: row.c_updated_at as string,
  });
  return { ...toAccessToken(row), client };
}

// The columns of an insert, in the order of its parameters (`parametersOf`).
export const emptyRow = {
  id: '',
  user_id: 0,
  client_id: '',
  name: '',
  scopes: '',
  revoked: 0,
  created_at: '',
  updated_at: '',
  expires_at: '',
  kid: '',
  audience: '',
  organization_id: 0,
};

export function parametersOf(token: AccessTokenRecord): unknown[] {
  return [
    token.id,
    token.userId,
    token.clientId,
    token.name,
    JSON.stringify(token.scopes),
    token.revoked ? 1 : 0,
    token.createdAt,
    token.updatedAt,
    token.expiresAt,
    token.kid ?? null,
    token.audience ?? null,
    token.organizationId ?? null,
  ];
}

const MAX_BATCH = 64;

// One precompiled INSERT per row count a batch may have, built on first use.
const inserts: Precompiled<never>[] = [];
function insertOf(rows: number): Precompiled<never> {
  inserts[rows] ??= new Precompiled<never>((db: Kysely<Database>) =>
    db.insertInto('oauth_access_tokens').values(Array.from({ length: rows }, () => emptyRow)),
  );
  return inserts[rows]!;
}

/** One multi-row INSERT of `tokens`, on `db` as it is (no batching). */
export async function insertAccessTokens(
  db: Kysely<Database>,
  tokens: readonly AccessTokenRecord[],
): Promise<void> {
  await insertOf(tokens.length).execute(db, tokens.flatMap(parametersOf));
}

const findWithClient = new Precompiled<JoinedRow>((db: Kysely<Database>) =>
  db
    .selectFrom('oauth_access_tokens as t')
    .innerJoin('oauth_clients as c', 'c.id', 't.client_id')
    .selectAll('t')
    .select(clientColumns)
    .where('t.id', '=', ''),
);

// Parameters: user_id, client_id, revoked (0), now, limit (1).
const latestLive = new Precompiled<{ scopes: string }>((db: Kysely<Database>) =>
  live(db, 0, '', '').select('scopes').orderBy('expires_at', 'desc').limit(1),
);

// Parameters: revoked (1), now, id, revoked (0). A refresh retires one token on every use.
const revokeOne = new Precompiled<{ id: string }>((db: Kysely<Database>) =>
  db
    .updateTable('oauth_access_tokens')
    .set({ revoked: 1, updated_at: '' })
    .where('id', '=', '')
    .where('revoked', '=', 0)
    .returning('id'),
);

/** The user's live tokens for a client: not revoked, not expired at `now`. */
function live(db: Kysely<Database>, userId: number, clientId: string, now: string) {
  return db
    .selectFrom('oauth_access_tokens')
    .where('user_id', '=', userId)
    .where('client_id', '=', clientId)
    .where('revoked', '=', 0)
    .where('expires_at', '>', now);
}

export class KyselyAccessTokenStore implements AccessTokenStore {
  /** Outside a transaction, concurrent inserts share a commit (client_credentials under load). */
  readonly #batch: InsertBatch<AccessTokenRecord> | undefined;

  constructor(private readonly db: Kysely<Database>) {
    if (!db.isTransaction) {
      this.#batch = new InsertBatch((tokens) => this.#write(tokens), MAX_BATCH);
    }
  }

  insert(token: AccessTokenRecord): Promise<void> {
    return this.#batch ? this.#batch.add(token) : this.#write([token]);
  }

  #write(tokens: readonly AccessTokenRecord[]): Promise<void> {
    return insertAccessTokens(this.db, tokens);
  }

  async find(id: string): Promise<AccessTokenRecord | undefined> {
    if (!isRecordId(id)) return undefined;
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
    filter: { personal?: boolean; organizationId?: number; now: string },
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
      .$if(filter.organizationId !== undefined, (q) =>
        q.where('t.organization_id', '=', filter.organizationId!),
      )
      .orderBy('t.created_at', 'desc')
      .orderBy('t.id')
      .execute();
    return rows.map((row) => toTokenWithClient(row as JoinedRow));
  }

  async revokeForOrganization(organizationId: number, now: string, userId?: number): Promise<string[]> {
    const rows = await this.db
      .updateTable('oauth_access_tokens')
      .set({ revoked: 1, updated_at: now })
      .where('organization_id', '=', organizationId)
      .$if(userId !== undefined, (q) => q.where('user_id', '=', userId!))
      .where('revoked', '=', 0)
      .returning('id')
      .execute();
    return rows.map((r) => r.id);
  }

  async revoke(ids: readonly string[], now: string): Promise<string[]> {
    if (ids.length === 0) return [];
    if (ids.length === 1) return (await revokeOne.execute(this.db, [1, now, ids[0], 0])).map((r) => r.id);
    const rows = await this.db
      .updateTable('oauth_access_tokens')
      .set({ revoked: 1, updated_at: now })
      .where('id', 'in', ids)
      .where('revoked', '=', 0)
      .returning('id')
      .execute();
    return rows.map((r) => r.id);
  }

  async latestLiveScopes(userId: number, clientId: string, now: string): Promise<string[] | undefined> {
    const [row] = await latestLive.execute(this.db, [userId, clientId, 0, now, 1]);
    return row ? (JSON.parse(row.scopes) as string[]) : undefined;
  }

  async liveScopes(userId: number, clientId: string, now: string): Promise<string[][]> {
    const rows = await live(this.db, userId, clientId, now).select('scopes').distinct().execute();
    return rows.map((row) => JSON.parse(row.scopes) as string[]);
  }

  async kidsInUse(now: string): Promise<(string | null)[]> {
    const rows = await this.db
      .selectFrom('oauth_access_tokens')
      .select('kid')
      .distinct()
      .where('revoked', '=', 0)
      .where('expires_at', '>', now)
      .execute();
    return rows.map((row) => row.kid);
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
