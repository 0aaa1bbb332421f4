import type { Kysely } from 'kysely';
import { withIncrements, withTimestamps } from '../schema.js';

export async function up(db: Kysely<any>): Promise<void> {
  await withTimestamps(
    withIncrements(db, db.schema.createTable('users'))
      .addColumn('name', 'varchar(255)', (c) => c.notNull())
      .addColumn('email', 'varchar(255)', (c) => c.notNull().unique())
      .addColumn('password', 'varchar(255)', (c) => c.notNull())
      .addColumn('stripe_id', 'varchar(255)')
      .addColumn('braintree_id', 'varchar(255)')
      .addColumn('paypal_email', 'varchar(255)')
      .addColumn('card_brand', 'varchar(255)')
      .addColumn('card_last_four', 'varchar(4)')
      .addColumn('trial_ends_at', 'varchar(32)'),
  ).execute();
  await db.schema.createIndex('users_stripe_id_index').on('users').column('stripe_id').execute();
  await db.schema.createIndex('users_braintree_id_index').on('users').column('braintree_id').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('users').execute();
}
