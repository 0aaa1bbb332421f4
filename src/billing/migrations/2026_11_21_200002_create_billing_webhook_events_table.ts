import type { Kysely } from 'kysely';
import { withIncrements } from '../../database/schema.js';

export async function up(db: Kysely<any>): Promise<void> {
  await withIncrements(db, db.schema.createTable('billing_webhook_events'))
    .addColumn('provider', 'varchar(32)', (c) => c.notNull())
    .addColumn('event_id', 'varchar(255)', (c) => c.notNull())
    .addColumn('type', 'varchar(255)', (c) => c.notNull())
    .addColumn('received_at', 'varchar(32)', (c) => c.notNull())
    .addUniqueConstraint('billing_webhook_events_provider_event_unique', ['provider', 'event_id'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('billing_webhook_events').execute();
}
