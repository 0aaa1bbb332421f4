import type { Kysely } from 'kysely';
import { userIdColumn, withIncrements } from '../../database/schema.js';

/** The devices (browser + address fingerprints) each user signed in from: a new one gets a notice. */
export async function up(db: Kysely<any>): Promise<void> {
  const userId = await userIdColumn(db);
  await withIncrements(db, db.schema.createTable('account_devices'))
    .addColumn('user_id', 'integer', (c) => userId(c.notNull()))
    .addColumn('fingerprint', 'varchar(64)', (c) => c.notNull())
    .addColumn('first_seen_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('last_seen_at', 'varchar(32)', (c) => c.notNull())
    .addUniqueConstraint('account_devices_user_fingerprint_unique', ['user_id', 'fingerprint'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('account_devices').execute();
}
