import type { Kysely } from 'kysely';

/**
 * OpenID Connect logout: a client's logout URIs (RP-Initiated Logout §3.1, Back-Channel Logout
 * §2.2), the sessions each client got an ID token in (the `sid` a back-channel logout names), and
 * the `sid` of the login an authorization code was issued in.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('oauth_client_logout')
    .addColumn('client_id', 'varchar(255)', (c) =>
      c.primaryKey().references('oauth_clients.id').onDelete('cascade'),
    )
    .addColumn('post_logout_redirect_uris', 'text', (c) => c.notNull())
    .addColumn('backchannel_logout_uri', 'text')
    .addColumn('backchannel_logout_session_required', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .createTable('oauth_logout_sessions')
    .addColumn('sid', 'varchar(64)', (c) => c.notNull())
    .addColumn('client_id', 'varchar(255)', (c) =>
      c.notNull().references('oauth_clients.id').onDelete('cascade'),
    )
    .addColumn('user_id', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addPrimaryKeyConstraint('oauth_logout_sessions_pk', ['sid', 'client_id'])
    .execute();
  await db.schema.alterTable('oauth_auth_codes').addColumn('sid', 'varchar(64)').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('oauth_auth_codes').dropColumn('sid').execute();
  await db.schema.dropTable('oauth_logout_sessions').execute();
  await db.schema.dropTable('oauth_client_logout').execute();
}
