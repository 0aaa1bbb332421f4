import type { Kysely } from 'kysely';

/**
 * OpenID Connect: an authorization code carries the request's `nonce` and the time the user
 * logged in (`auth_time`, ISO-8601) to the ID token issued for it. Null for plain OAuth requests
 * and for codes issued before.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('oauth_auth_codes').addColumn('nonce', 'text').execute();
  await db.schema.alterTable('oauth_auth_codes').addColumn('auth_time', 'varchar(32)').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('oauth_auth_codes').dropColumn('auth_time').execute();
  await db.schema.alterTable('oauth_auth_codes').dropColumn('nonce').execute();
}
