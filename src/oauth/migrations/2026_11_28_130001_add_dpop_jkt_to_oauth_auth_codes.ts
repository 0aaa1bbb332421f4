import type { Kysely } from 'kysely';

/** RFC 9449 §10: an authorization code may be bound to a DPoP key (`dpop_jkt`). */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('oauth_auth_codes').addColumn('dpop_jkt', 'varchar(64)').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('oauth_auth_codes').dropColumn('dpop_jkt').execute();
}
