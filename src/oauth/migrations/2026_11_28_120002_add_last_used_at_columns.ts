import type { Kysely } from 'kysely';

/** When an access token, and any token of a client, was last used (to the minute; see `LastUsed`). */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('oauth_access_tokens').addColumn('last_used_at', 'varchar(32)').execute();
  await db.schema.alterTable('oauth_clients').addColumn('last_used_at', 'varchar(32)').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('oauth_clients').dropColumn('last_used_at').execute();
  await db.schema.alterTable('oauth_access_tokens').dropColumn('last_used_at').execute();
}
