import type { Kysely } from 'kysely';
import { withIncrements, withTimestamps } from '../../database/schema.js';

export async function up(db: Kysely<any>): Promise<void> {
  await withTimestamps(
    withIncrements(db, db.schema.createTable('mail_outbox'))
      .addColumn('kind', 'varchar(100)', (c) => c.notNull())
      .addColumn('recipient', 'varchar(255)', (c) => c.notNull())
      .addColumn('subject', 'varchar(255)', (c) => c.notNull())
      .addColumn('text', 'text', (c) => c.notNull())
      .addColumn('html', 'text', (c) => c.notNull())
      .addColumn('attachments', 'text')
      .addColumn('message_id', 'varchar(255)', (c) => c.notNull())
      .addColumn('status', 'varchar(16)', (c) => c.notNull())
      .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('available_at', 'varchar(32)', (c) => c.notNull())
      .addColumn('claim', 'varchar(64)')
      .addColumn('claimed_until', 'varchar(32)')
      .addColumn('last_error', 'text')
      .addColumn('sent_at', 'varchar(32)'),
  ).execute();
  // The worker's question: what is due now, oldest first.
  await db.schema
    .createIndex('mail_outbox_status_available_at_index')
    .on('mail_outbox')
    .columns(['status', 'available_at'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('mail_outbox').execute();
}
