import type { Kysely } from 'kysely';

/** Where a session was used from (the account page's list of sessions): client address and browser. */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('sessions').addColumn('ip_address', 'varchar(64)').execute();
  await db.schema.alterTable('sessions').addColumn('user_agent', 'varchar(512)').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('sessions').dropColumn('user_agent').execute();
  await db.schema.alterTable('sessions').dropColumn('ip_address').execute();
}
