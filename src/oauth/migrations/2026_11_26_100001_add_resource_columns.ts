import type { Kysely } from 'kysely';

/**
 * RFC 8707 resource indicators: an authorization code carries the request's `resource`, and an
 * access token row records the resource it was issued for (its `aud`), so a refresh keeps it.
 * Null for tokens and codes issued for no resource in particular, and for those issued before.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('oauth_auth_codes').addColumn('resource', 'varchar(2000)').execute();
  await db.schema.alterTable('oauth_access_tokens').addColumn('audience', 'varchar(2000)').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('oauth_access_tokens').dropColumn('audience').execute();
  await db.schema.alterTable('oauth_auth_codes').dropColumn('resource').execute();
}
