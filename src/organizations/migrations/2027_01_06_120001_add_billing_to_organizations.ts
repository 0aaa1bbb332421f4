import type { Kysely } from 'kysely';

// The billable columns (as on `users`), plus who the invoices are addressed to.
const columns: [
  name: string,
  type: 'varchar(255)' | 'varchar(64)' | 'varchar(32)' | 'varchar(4)' | 'text',
][] = [
  ['stripe_id', 'varchar(255)'],
  ['braintree_id', 'varchar(255)'],
  ['paypal_email', 'varchar(255)'],
  ['card_brand', 'varchar(255)'],
  ['card_last_four', 'varchar(4)'],
  ['trial_ends_at', 'varchar(32)'],
  ['billing_email', 'varchar(255)'],
  ['tax_id', 'varchar(64)'],
  ['billing_address', 'text'],
];

/** An organization is billable (docs/organizations.md#billing): its own customer at the provider. */
export async function up(db: Kysely<any>): Promise<void> {
  for (const [name, type] of columns)
    await db.schema.alterTable('organizations').addColumn(name, type).execute();
  await db.schema
    .createIndex('organizations_stripe_id_index')
    .on('organizations')
    .column('stripe_id')
    .execute();
  await db.schema
    .createIndex('organizations_braintree_id_index')
    .on('organizations')
    .column('braintree_id')
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('organizations_stripe_id_index').execute();
  await db.schema.dropIndex('organizations_braintree_id_index').execute();
  for (const [name] of [...columns].reverse())
    await db.schema.alterTable('organizations').dropColumn(name).execute();
}
