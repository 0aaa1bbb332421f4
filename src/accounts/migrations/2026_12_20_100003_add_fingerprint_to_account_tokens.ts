import type { Kysely } from 'kysely';

/** What the link was issued against (a digest of the password hash): a reset link dies when the password changes. */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('account_tokens').addColumn('fingerprint', 'varchar(64)').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('account_tokens').dropColumn('fingerprint').execute();
}
