import type { Kysely } from 'kysely';

/**
 * The `kid` of the key each access token was signed with, so `tollgate keys:prune` knows which
 * previous keys live tokens still need. Null for tokens issued before keys rotated: they were
 * signed with the key that was current then.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('oauth_access_tokens').addColumn('kid', 'varchar(64)').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('oauth_access_tokens').dropColumn('kid').execute();
}
