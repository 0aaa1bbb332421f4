import type { Kysely } from 'kysely';
import { userIdColumn, withIncrements } from '../../../database/schema.js';

/**
 * A user's passkeys: the credential id and public key an authenticator gave at registration
 * (base64url), the signature counter it last reported, and whether it is synced (backed up).
 */
export async function up(db: Kysely<any>): Promise<void> {
  const userId = await userIdColumn(db);
  await withIncrements(db, db.schema.createTable('signin_passkeys'))
    .addColumn('user_id', 'integer', (c) => userId(c.notNull()))
    .addColumn('credential_id', 'varchar(1400)', (c) => c.notNull().unique())
    .addColumn('public_key', 'text', (c) => c.notNull())
    .addColumn('counter', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('transports', 'varchar(255)', (c) => c.notNull().defaultTo(''))
    .addColumn('device_type', 'varchar(32)', (c) => c.notNull())
    .addColumn('backed_up', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('name', 'varchar(100)', (c) => c.notNull())
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('last_used_at', 'varchar(32)')
    .execute();
  await db.schema
    .createIndex('signin_passkeys_user_id_index')
    .on('signin_passkeys')
    .column('user_id')
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('signin_passkeys').execute();
}
