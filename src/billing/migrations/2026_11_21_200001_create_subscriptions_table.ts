import type { Kysely } from 'kysely';
import { userIdColumn, withIncrements, withTimestamps } from '../../database/schema.js';

export async function up(db: Kysely<any>): Promise<void> {
  const userId = await userIdColumn(db);
  await withTimestamps(
    withIncrements(db, db.schema.createTable('subscriptions'))
      .addColumn('user_id', 'integer', (c) => userId(c.notNull()))
      .addColumn('name', 'varchar(255)', (c) => c.notNull())
      .addColumn('stripe_id', 'varchar(255)')
      .addColumn('stripe_plan', 'varchar(255)')
      .addColumn('braintree_id', 'varchar(255)')
      .addColumn('braintree_plan', 'varchar(255)')
      .addColumn('quantity', 'integer')
      .addColumn('trial_ends_at', 'varchar(32)')
      .addColumn('ends_at', 'varchar(32)'),
  ).execute();
  await db.schema
    .createIndex('subscriptions_user_id_name_index')
    .on('subscriptions')
    .columns(['user_id', 'name'])
    .execute();
  await db.schema
    .createIndex('subscriptions_stripe_id_index')
    .on('subscriptions')
    .column('stripe_id')
    .execute();
  await db.schema
    .createIndex('subscriptions_braintree_id_index')
    .on('subscriptions')
    .column('braintree_id')
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('subscriptions').execute();
}
