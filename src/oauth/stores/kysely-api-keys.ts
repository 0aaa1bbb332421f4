import type { Kysely } from 'kysely';
import type { Database } from '../../database/types.js';
import { type ApiKeyRecord, type ApiKeyStore, isApiKeyId, type NewApiKey } from '../api-keys/records.js';
import type { ApiKeyRow } from '../tables.js';
import { Precompiled } from './precompiled.js';

function toApiKey(row: ApiKeyRow): ApiKeyRecord {
  return {
    id: row.id,
    userId: row.user_id,
    name: row.name,
    prefix: row.prefix,
    lastFour: row.last_four,
    scopes: JSON.parse(row.scopes) as string[],
    rateLimitPerMinute: row.rate_limit_per_minute,
    revoked: row.revoked === 1,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    expiresAt: row.expires_at,
    lastUsedAt: row.last_used_at,
    organizationId: row.organization_id,
  };
}

// The guard's lookup of an unknown key: compiled once, like the access token lookup.
const findByHash = new Precompiled<ApiKeyRow>((db: Kysely<Database>) =>
  db.selectFrom('api_keys').selectAll().where('key_hash', '=', ''),
);

/** API keys on Kysely (SQLite or PostgreSQL). */
export class KyselyApiKeyStore implements ApiKeyStore {
  constructor(private readonly db: Kysely<Database>) {}

  async insert(key: NewApiKey): Promise<ApiKeyRecord> {
    const row: ApiKeyRow = {
      id: key.id,
      user_id: key.userId,
      name: key.name,
      key_hash: key.hash,
      prefix: key.prefix,
      last_four: key.lastFour,
      scopes: JSON.stringify(key.scopes),
      rate_limit_per_minute: key.rateLimitPerMinute,
      revoked: 0,
      created_at: key.createdAt,
      updated_at: key.createdAt,
      expires_at: key.expiresAt,
      last_used_at: null,
      organization_id: key.organizationId,
    };
    await this.db.insertInto('api_keys').values(row).execute();
    return toApiKey(row);
  }

  async findByHash(hash: string): Promise<ApiKeyRecord | undefined> {
    const [row] = await findByHash.execute(this.db, [hash]);
    return row ? toApiKey(row) : undefined;
  }

  async find(id: string): Promise<ApiKeyRecord | undefined> {
    if (!isApiKeyId(id)) return undefined;
    const row = await this.db.selectFrom('api_keys').selectAll().where('id', '=', id).executeTakeFirst();
    return row ? toApiKey(row) : undefined;
  }

  async forUser(userId: number): Promise<ApiKeyRecord[]> {
    const rows = await this.db
      .selectFrom('api_keys')
      .selectAll()
      .where('user_id', '=', userId)
      .where('revoked', '=', 0)
      .orderBy('created_at', 'desc')
      .orderBy('id')
      .execute();
    return rows.map(toApiKey);
  }

  async forOrganization(organizationId: number): Promise<ApiKeyRecord[]> {
    const rows = await this.db
      .selectFrom('api_keys')
      .selectAll()
      .where('organization_id', '=', organizationId)
      .where('revoked', '=', 0)
      .orderBy('created_at', 'desc')
      .orderBy('id')
      .execute();
    return rows.map(toApiKey);
  }

  async deleteForUser(userId: number): Promise<number> {
    const result = await this.db.deleteFrom('api_keys').where('user_id', '=', userId).executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  async revoke(id: string, now: string): Promise<boolean> {
    const result = await this.db
      .updateTable('api_keys')
      .set({ revoked: 1, updated_at: now })
      .where('id', '=', id)
      .where('revoked', '=', 0)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }
}
