import type { Kysely } from 'kysely';

/** Seat syncs not yet confirmed by the provider (docs/organizations.md#seats): retried until one succeeds. */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('organization_seat_syncs')
    .addColumn('organization_id', 'integer', (c) =>
      c.primaryKey().references('organizations.id').onDelete('cascade'),
    )
    .addColumn('attempt', 'varchar(36)', (c) => c.notNull())
    .addColumn('since', 'varchar(32)', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('organization_seat_syncs').execute();
}
