import { type Kysely, sql } from 'kysely';

/**
 * Double submits (issue 13, item 3): one live subscription per (user, name), a lease table for the
 * per-user billing lock, and the results of operations made under a caller's request key.
 * "Live" means not cancelled (`ends_at IS NULL`): a cancelled row — on its grace period or ended —
 * never blocks a new subscription with the same name. Partial unique indexes run on SQLite and
 * PostgreSQL alike. Installs that already hold duplicate live rows must end the extras first.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createIndex('subscriptions_user_id_name_live_unique')
    .unique()
    .on('subscriptions')
    .columns(['user_id', 'name'])
    .where(sql.ref('ends_at'), 'is', null)
    .execute();
  await db.schema
    .createTable('billing_locks')
    .addColumn('name', 'varchar(255)', (c) => c.primaryKey())
    .addColumn('holder', 'varchar(64)', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('billing_requests')
    .addColumn('key', 'varchar(255)', (c) => c.primaryKey())
    .addColumn('fingerprint', 'varchar(64)', (c) => c.notNull())
    .addColumn('result', 'text', (c) => c.notNull())
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('billing_requests').execute();
  await db.schema.dropTable('billing_locks').execute();
  await db.schema.dropIndex('subscriptions_user_id_name_live_unique').execute();
}
