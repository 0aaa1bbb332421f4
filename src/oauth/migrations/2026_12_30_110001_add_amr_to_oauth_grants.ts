import type { Kysely } from 'kysely';

/**
 * OpenID Connect `amr`: how the user signed in (`pwd`, `pwd otp`, space-separated), kept by the
 * code and down the refresh chain for the ID token's `amr` and `acr`.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('oauth_auth_codes').addColumn('amr', 'varchar(64)').execute();
  await db.schema.alterTable('oauth_refresh_tokens').addColumn('amr', 'varchar(64)').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('oauth_refresh_tokens').dropColumn('amr').execute();
  await db.schema.alterTable('oauth_auth_codes').dropColumn('amr').execute();
}
