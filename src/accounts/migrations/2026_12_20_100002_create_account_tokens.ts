import type { Kysely } from 'kysely';
import { userIdColumn, withIncrements } from '../../database/schema.js';

export async function up(db: Kysely<any>): Promise<void> {
  const userId = await userIdColumn(db);
  await withIncrements(db, db.schema.createTable('account_tokens'))
    .addColumn('user_id', 'integer', (c) => userId(c.notNull()))
    .addColumn('purpose', 'varchar(32)', (c) => c.notNull())
    .addColumn('token_hash', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('email', 'varchar(255)', (c) => c.notNull())
    .addColumn('expires_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('used_at', 'varchar(32)')
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('account_tokens_user_id_purpose_index')
    .on('account_tokens')
    .columns(['user_id', 'purpose'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('account_tokens').execute();
}
