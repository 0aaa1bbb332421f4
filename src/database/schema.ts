import {
  type ColumnDefinitionBuilder,
  type CreateTableBuilder,
  type Kysely,
  PostgresAdapter,
  sql,
} from 'kysely';

/** Migrations are "frozen in time": they take `Kysely<any>` and these few portable helpers. */
export function isPostgres(db: Kysely<any>): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

/** An auto-increment integer primary key named `id` on either engine. */
export function withIncrements<T extends string>(db: Kysely<any>, table: CreateTableBuilder<T, never>) {
  return isPostgres(db)
    ? table.addColumn('id', 'serial', (c) => c.primaryKey())
    : table.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement());
}

/** `created_at` / `updated_at` as ISO-8601 text, filled by the application's clock. */
export function withTimestamps<T extends string>(table: CreateTableBuilder<T, any>) {
  return table
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull());
}

export const now = sql`CURRENT_TIMESTAMP`;

/**
 * A `user_id` column: a foreign key to `users.id` when the users live in Tollgate's own `users`
 * table, a plain integer when the application brings its own users provider (no such table).
 */
export async function userIdColumn(db: Kysely<any>) {
  const tables = await db.introspection.getTables();
  const hasUsers = tables.some((table) => table.name === 'users');
  return (c: ColumnDefinitionBuilder) => (hasUsers ? c.references('users.id').onDelete('cascade') : c);
}
