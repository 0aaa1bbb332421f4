import type { Kysely } from 'kysely';
import { userIdColumn } from '../../database/schema.js';

/**
 * Device authorization requests (RFC 8628): the device code and the user code are stored only as
 * SHA-256 digests; the user code's digest is unique, so an entered code names one request.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const userId = await userIdColumn(db);
  await db.schema
    .createTable('oauth_device_codes')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('user_code', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('client_id', 'varchar(64)', (c) =>
      c.notNull().references('oauth_clients.id').onDelete('cascade'),
    )
    .addColumn('scopes', 'text', (c) => c.notNull())
    .addColumn('status', 'varchar(16)', (c) => c.notNull())
    .addColumn('user_id', 'integer', userId)
    .addColumn('poll_interval', 'integer', (c) => c.notNull())
    .addColumn('last_polled_at', 'varchar(32)')
    .addColumn('access_token_id', 'varchar(64)')
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('expires_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('oauth_device_codes_client_id_index')
    .on('oauth_device_codes')
    .column('client_id')
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('oauth_device_codes').execute();
}
