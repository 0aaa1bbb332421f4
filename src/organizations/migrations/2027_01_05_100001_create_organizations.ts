import type { Kysely } from 'kysely';
import { userIdColumn, withIncrements, withTimestamps } from '../../database/schema.js';

/** Organizations and their members; the unique (organization, user) pair makes a membership single. */
export async function up(db: Kysely<any>): Promise<void> {
  const userId = await userIdColumn(db);
  await withTimestamps(
    withIncrements(db, db.schema.createTable('organizations')).addColumn('name', 'varchar(100)', (c) =>
      c.notNull(),
    ),
  ).execute();
  await withTimestamps(
    withIncrements(db, db.schema.createTable('organization_members'))
      .addColumn('organization_id', 'integer', (c) =>
        c.notNull().references('organizations.id').onDelete('cascade'),
      )
      .addColumn('user_id', 'integer', (c) => userId(c.notNull()))
      .addColumn('role', 'varchar(32)', (c) => c.notNull())
      .addUniqueConstraint('organization_members_organization_id_user_id_unique', [
        'organization_id',
        'user_id',
      ]),
  ).execute();
  await db.schema
    .createIndex('organization_members_user_id_index')
    .on('organization_members')
    .column('user_id')
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('organization_members').execute();
  await db.schema.dropTable('organizations').execute();
}
