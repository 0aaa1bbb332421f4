import type { Kysely } from 'kysely';

/**
 * What is left of a deleted account: its id, when it went, and the billing customer id its invoices
 * are kept under (what the law asks a seller to keep). No name, no address: no foreign key either,
 * since the user row is gone.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('account_deletions')
    .addColumn('user_id', 'integer', (c) => c.primaryKey())
    .addColumn('billing_gateway', 'varchar(32)')
    .addColumn('billing_customer_id', 'varchar(255)')
    .addColumn('deleted_at', 'varchar(32)', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('account_deletions').execute();
}
