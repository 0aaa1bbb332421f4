import type { Kysely } from 'kysely';

/**
 * What metered usage has been reported to the payment provider, per user, meter and billing
 * period: `reported_units` is the running total the provider has; `pending_units` a total being
 * sent (set before the call, cleared after), so a report cut short is sent again under the same
 * identifier — which the provider counts once — before anything new.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('usage_reports')
    .addColumn('user_id', 'varchar(255)', (c) => c.notNull())
    .addColumn('meter', 'varchar(100)', (c) => c.notNull())
    .addColumn('period_start', 'varchar(32)', (c) => c.notNull())
    .addColumn('reported_units', 'bigint', (c) => c.notNull())
    .addColumn('pending_units', 'bigint')
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
    .addPrimaryKeyConstraint('usage_reports_pk', ['user_id', 'meter', 'period_start'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('usage_reports').execute();
}
