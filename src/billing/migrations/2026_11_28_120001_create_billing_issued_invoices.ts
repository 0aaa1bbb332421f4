import type { Kysely } from 'kysely';
import { withIncrements } from '../../database/schema.js';

/**
 * Invoices frozen at issue, for a payment gateway that keeps no invoices of its own (Braintree: an
 * invoice is a sale transaction, and its plan, tax rate and net amounts are not on it). One row
 * per provider transaction, written when the charge is made, never changed; tax rates in
 * hundredths of a percent (8.25% → 825) so they come back exactly. `billing_subscription_terms`
 * holds what a subscription's recurring price was built from, so a renewal can be recorded too.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await withIncrements(db, db.schema.createTable('billing_issued_invoices'))
    .addColumn('gateway', 'varchar(32)', (c) => c.notNull())
    .addColumn('provider_id', 'varchar(255)', (c) => c.notNull())
    .addColumn('customer_id', 'varchar(255)', (c) => c.notNull())
    .addColumn('subscription_id', 'varchar(255)')
    .addColumn('plan', 'varchar(255)')
    .addColumn('plan_name', 'varchar(255)')
    .addColumn('currency', 'varchar(3)', (c) => c.notNull())
    .addColumn('tax_rate', 'integer', (c) => c.notNull())
    .addColumn('subtotal', 'integer', (c) => c.notNull())
    .addColumn('discount', 'integer', (c) => c.notNull())
    .addColumn('discount_description', 'text')
    .addColumn('tax', 'integer', (c) => c.notNull())
    .addColumn('total', 'integer', (c) => c.notNull())
    .addColumn('issued_at', 'varchar(32)', (c) => c.notNull())
    .addUniqueConstraint('billing_issued_invoices_gateway_provider_id_unique', ['gateway', 'provider_id'])
    .execute();
  await db.schema
    .createTable('billing_subscription_terms')
    .addColumn('gateway', 'varchar(32)', (c) => c.notNull())
    .addColumn('subscription_id', 'varchar(255)', (c) => c.notNull())
    .addColumn('plan', 'varchar(255)', (c) => c.notNull())
    .addColumn('price', 'integer', (c) => c.notNull())
    .addColumn('tax_rate', 'integer', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
    .addPrimaryKeyConstraint('billing_subscription_terms_pk', ['gateway', 'subscription_id'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('billing_subscription_terms').execute();
  await db.schema.dropTable('billing_issued_invoices').execute();
}
