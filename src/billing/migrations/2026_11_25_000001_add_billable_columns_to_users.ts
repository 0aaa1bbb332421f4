import type { Kysely } from 'kysely';

// The spec's "billable user record": both editions' columns, so one schema serves either.
const columns: [name: string, type: 'varchar(255)' | 'varchar(32)' | 'varchar(4)'][] = [
  ['stripe_id', 'varchar(255)'],
  ['braintree_id', 'varchar(255)'],
  ['paypal_email', 'varchar(255)'],
  ['card_brand', 'varchar(255)'],
  ['card_last_four', 'varchar(4)'],
  ['trial_ends_at', 'varchar(32)'],
];

/**
 * Installs from before billing owned its columns already have them: only missing ones are added.
 * An application with its own users table (its own users provider) adds these columns itself.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const users = (await db.introspection.getTables()).find((t) => t.name === 'users');
  if (!users) return;
  const existing = new Set(users.columns.map((c) => c.name));
  for (const [name, type] of columns) {
    if (!existing.has(name)) await db.schema.alterTable('users').addColumn(name, type).execute();
  }
  await db.schema
    .createIndex('users_stripe_id_index')
    .ifNotExists()
    .on('users')
    .column('stripe_id')
    .execute();
  await db.schema
    .createIndex('users_braintree_id_index')
    .ifNotExists()
    .on('users')
    .column('braintree_id')
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('users_stripe_id_index').ifExists().execute();
  await db.schema.dropIndex('users_braintree_id_index').ifExists().execute();
  for (const [name] of [...columns].reverse()) await db.schema.alterTable('users').dropColumn(name).execute();
}
