import type { Kysely } from 'kysely';

/**
 * OpenID Connect grants: the `claims` request (Core §5.5) kept by the code and down the refresh
 * chain, the login session's `sid` on refresh tokens (ID tokens issued on refresh carry it), and
 * the userinfo claims asked for by name beside each access token that has some.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('oauth_auth_codes').addColumn('claims', 'text').execute();
  await db.schema.alterTable('oauth_refresh_tokens').addColumn('sid', 'varchar(64)').execute();
  await db.schema.alterTable('oauth_refresh_tokens').addColumn('claims', 'text').execute();
  await db.schema
    .createTable('oauth_access_token_claims')
    .addColumn('access_token_id', 'varchar(64)', (c) =>
      c.primaryKey().references('oauth_access_tokens.id').onDelete('cascade'),
    )
    .addColumn('claims', 'text', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('oauth_access_token_claims').execute();
  await db.schema.alterTable('oauth_refresh_tokens').dropColumn('claims').execute();
  await db.schema.alterTable('oauth_refresh_tokens').dropColumn('sid').execute();
  await db.schema.alterTable('oauth_auth_codes').dropColumn('claims').execute();
}
