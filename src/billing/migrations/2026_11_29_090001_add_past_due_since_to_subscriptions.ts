import type { Kysely } from 'kysely';

/**
 * When a subscription became `past_due` (null while it is not), so a grace counted from the first
 * failed renewal can end (`plans.pastDueGraceDays`). Rows already past due count from now.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('subscriptions').addColumn('past_due_since', 'varchar(32)').execute();
  await db
    .updateTable('subscriptions')
    .set({ past_due_since: new Date().toISOString() })
    .where('status', '=', 'past_due')
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('subscriptions').dropColumn('past_due_since').execute();
}
