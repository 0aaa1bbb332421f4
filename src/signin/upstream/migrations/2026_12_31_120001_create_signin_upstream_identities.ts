import type { Kysely } from 'kysely';
import { userIdColumn, withIncrements } from '../../../database/schema.js';

/** The users' links to upstream identity providers: one per provider and user, the provider's `sub`. */
export async function up(db: Kysely<any>): Promise<void> {
  const userId = await userIdColumn(db);
  await withIncrements(db, db.schema.createTable('signin_upstream_identities'))
    .addColumn('user_id', 'integer', (c) => userId(c.notNull()))
    .addColumn('provider', 'varchar(32)', (c) => c.notNull())
    .addColumn('subject', 'varchar(255)', (c) => c.notNull())
    .addColumn('email', 'varchar(255)')
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('last_used_at', 'varchar(32)')
    .addUniqueConstraint('signin_upstream_identities_provider_subject_unique', ['provider', 'subject'])
    .addUniqueConstraint('signin_upstream_identities_user_provider_unique', ['user_id', 'provider'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('signin_upstream_identities').execute();
}
