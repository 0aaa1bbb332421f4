import type { Kysely } from 'kysely';

/**
 * Dynamic client registration (RFC 7591, RFC 7592): the initial access tokens that open
 * registration under the `token` policy, and each registered client's registration access token.
 * Both stored only as SHA-256 digests.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('oauth_registration_tokens')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('expires_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('oauth_client_registrations')
    .addColumn('client_id', 'varchar(64)', (c) =>
      c.primaryKey().references('oauth_clients.id').onDelete('cascade'),
    )
    .addColumn('token', 'varchar(64)', (c) => c.notNull())
    .addColumn('auth_method', 'varchar(32)', (c) => c.notNull())
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('oauth_client_registrations').execute();
  await db.schema.dropTable('oauth_registration_tokens').execute();
}
