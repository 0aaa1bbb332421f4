import type { Kysely } from 'kysely';

/**
 * OpenID Connect Core §12.2: an ID token issued on refresh keeps the original `auth_time`. The
 * refresh token carries it down its rotation chain (ISO-8601); null when the grant had no login
 * time to record, or for tokens issued before.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('oauth_refresh_tokens').addColumn('auth_time', 'varchar(32)').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('oauth_refresh_tokens').dropColumn('auth_time').execute();
}
