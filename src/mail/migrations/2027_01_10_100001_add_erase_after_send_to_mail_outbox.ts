import type { Kysely } from 'kysely';

/** A mail whose row goes once the server took it (`SendOptions.eraseAfterSending`). */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('mail_outbox')
    .addColumn('erase_after_send', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('mail_outbox').dropColumn('erase_after_send').execute();
}
