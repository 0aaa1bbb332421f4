import type { Kysely } from 'kysely';

/**
 * One row per notice queued, keyed by what it is about (`receipt:in_123`): a webhook delivered
 * twice, or handled by two instances at once, queues its mail once.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('account_notifications')
    .addColumn('key', 'varchar(191)', (c) => c.primaryKey())
    .addColumn('kind', 'varchar(40)', (c) => c.notNull())
    .addColumn('user_id', 'integer')
    .addColumn('mail_id', 'integer')
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('account_notifications').execute();
}
