import { type Kysely, sql } from 'kysely';

/**
 * API keys, the third credential kind: only the key's SHA-256 is stored (unique, the guard's
 * lookup), with its prefix and last four characters for lists. A user's live keys have distinct
 * names (a partial unique index), so a double-clicked "Create" makes one key, not two.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('api_keys')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    // No foreign key to `users`: an application may keep its users elsewhere (its own table behind
    // a users provider), as for the token tables. A deleted user's key resolves to no user: 401.
    .addColumn('user_id', 'integer', (c) => c.notNull())
    .addColumn('name', 'varchar(255)', (c) => c.notNull())
    .addColumn('key_hash', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('prefix', 'varchar(16)', (c) => c.notNull())
    .addColumn('last_four', 'varchar(4)', (c) => c.notNull())
    .addColumn('scopes', 'text', (c) => c.notNull())
    .addColumn('rate_limit_per_minute', 'integer')
    .addColumn('revoked', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('expires_at', 'varchar(32)')
    .addColumn('last_used_at', 'varchar(32)')
    .execute();
  await db.schema
    .createIndex('api_keys_user_live_name')
    .on('api_keys')
    .columns(['user_id', 'name'])
    .unique()
    .where(sql.ref('revoked'), '=', sql.lit(0))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('api_keys').execute();
}
