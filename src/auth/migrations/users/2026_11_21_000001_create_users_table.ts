import type { Kysely } from 'kysely';
import { withIncrements, withTimestamps } from '../../../database/schema.js';

export async function up(db: Kysely<any>): Promise<void> {
  await withTimestamps(
    withIncrements(db, db.schema.createTable('users'))
      .addColumn('name', 'varchar(255)', (c) => c.notNull())
      .addColumn('email', 'varchar(255)', (c) => c.notNull().unique())
      .addColumn('password', 'varchar(255)', (c) => c.notNull()),
  ).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('users').execute();
}
