import type { Kysely } from 'kysely';
import { userIdColumn, withIncrements } from '../../../database/schema.js';

/**
 * Browsers that skip the second factor ("Remember this device"): the SHA-256 of the cookie's secret
 * (never the secret), the browser's description for the account page, and when it ends.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const userId = await userIdColumn(db);
  await withIncrements(db, db.schema.createTable('signin_remembered_devices'))
    .addColumn('user_id', 'integer', (c) => userId(c.notNull()))
    .addColumn('secret_hash', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('user_agent', 'varchar(512)')
    .addColumn('ip_address', 'varchar(64)')
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('last_used_at', 'varchar(32)')
    .addColumn('expires_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('signin_remembered_devices_user_id_index')
    .on('signin_remembered_devices')
    .column('user_id')
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('signin_remembered_devices').execute();
}
