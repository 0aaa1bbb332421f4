import type { Kysely } from 'kysely';

/**
 * Back-Channel Logout deliveries not yet made (§2.8 retries): stored, so a restart resumes them.
 * A row is claimed for an attempt by moving `next_attempt_at`, so two instances never both send it.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('oauth_backchannel_deliveries')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('client_id', 'varchar(255)', (c) =>
      c.notNull().references('oauth_clients.id').onDelete('cascade'),
    )
    .addColumn('uri', 'text', (c) => c.notNull())
    .addColumn('logout_token', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('next_attempt_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('oauth_backchannel_deliveries').execute();
}
