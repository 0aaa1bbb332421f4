import type { Kysely } from 'kysely';

/** On Tollgate's own `users` table; an application's own users table adds the column itself. */
export async function up(db: Kysely<any>): Promise<void> {
  const tables = await db.introspection.getTables();
  if (!tables.some((t) => t.name === 'users')) return;
  await db.schema.alterTable('users').addColumn('email_verified_at', 'varchar(32)').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  const tables = await db.introspection.getTables();
  if (!tables.some((t) => t.name === 'users')) return;
  await db.schema.alterTable('users').dropColumn('email_verified_at').execute();
}
