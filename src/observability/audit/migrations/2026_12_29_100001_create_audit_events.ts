import type { Kysely } from 'kysely';
import { withIncrements } from '../../../database/schema.js';

/**
 * The audit log: rows are only ever inserted, and deleted by the retention purge. `user_id` is a
 * plain integer, not a foreign key: a deleted account's history stays. `audit_purges` holds one row
 * per purge interval, claimed by the one instance that runs it.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await withIncrements(db, db.schema.createTable('audit_events'))
    .addColumn('at', 'varchar(32)', (c) => c.notNull())
    .addColumn('kind', 'varchar(64)', (c) => c.notNull())
    .addColumn('user_id', 'integer')
    .addColumn('actor', 'varchar(191)', (c) => c.notNull())
    .addColumn('subject', 'varchar(191)')
    .addColumn('ip', 'varchar(64)')
    .addColumn('user_agent', 'varchar(300)')
    .addColumn('request_id', 'varchar(128)')
    .addColumn('details', 'text')
    .execute();
  await db.schema
    .createIndex('audit_events_user_id_id_index')
    .on('audit_events')
    .columns(['user_id', 'id'])
    .execute();
  await db.schema.createIndex('audit_events_at_index').on('audit_events').column('at').execute();
  await db.schema
    .createTable('audit_purges')
    .addColumn('slot', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('started_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('deleted', 'integer')
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('audit_purges').execute();
  await db.schema.dropTable('audit_events').execute();
}
