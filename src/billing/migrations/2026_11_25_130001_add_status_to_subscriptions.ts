import { type Kysely, sql } from 'kysely';

/**
 * Provider state synced back (issue 13, item 2): the provider's status of each subscription, and
 * when the state last applied was current (so an older webhook event is not applied over it).
 * Existing rows get the status their dates say today: ended → canceled, in trial → trialing, else
 * active (timestamps are ISO-8601 text, so they compare as text on both engines).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('subscriptions')
    .addColumn('status', 'varchar(32)', (c) => c.notNull().defaultTo('active'))
    .execute();
  await db.schema.alterTable('subscriptions').addColumn('provider_updated_at', 'varchar(32)').execute();
  const now = new Date().toISOString();
  await db
    .updateTable('subscriptions')
    .set({
      status: sql`case
        when ends_at is not null and ends_at <= ${now} then 'canceled'
        when trial_ends_at is not null and trial_ends_at > ${now} then 'trialing'
        else 'active' end`,
    })
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('subscriptions').dropColumn('provider_updated_at').execute();
  await db.schema.alterTable('subscriptions').dropColumn('status').execute();
}
