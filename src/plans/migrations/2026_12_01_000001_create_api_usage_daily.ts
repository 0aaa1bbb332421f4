import type { Kysely } from 'kysely';
import { withIncrements } from '../../database/schema.js';

/**
 * Metered API usage, one row per day (UTC), user, client, credential, route and meter. Every key
 * column is NOT NULL ('' for none): PostgreSQL treats NULLs as distinct, and the upsert of each
 * flush (`on conflict … do update set units = units + excluded.units`) needs the unique index to
 * match.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await withIncrements(db, db.schema.createTable('api_usage_daily'))
    .addColumn('day', 'varchar(10)', (c) => c.notNull())
    .addColumn('user_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('client_id', 'varchar(255)', (c) => c.notNull().defaultTo(''))
    .addColumn('credential_kind', 'varchar(16)', (c) => c.notNull())
    .addColumn('credential_id', 'varchar(255)', (c) => c.notNull().defaultTo(''))
    .addColumn('route', 'varchar(255)', (c) => c.notNull())
    .addColumn('meter', 'varchar(64)', (c) => c.notNull())
    .addColumn('units', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('api_usage_daily_key_unique')
    .on('api_usage_daily')
    .columns(['day', 'user_id', 'client_id', 'credential_kind', 'credential_id', 'route', 'meter'])
    .unique()
    .execute();
  await db.schema
    .createIndex('api_usage_daily_user_day_index')
    .on('api_usage_daily')
    .columns(['user_id', 'day'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('api_usage_daily').execute();
}
