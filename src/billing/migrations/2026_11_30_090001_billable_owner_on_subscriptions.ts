import { type Kysely, sql } from 'kysely';
import { isPostgres } from '../../database/schema.js';

/**
 * Billable on any model: a subscription belongs to `(billable_type, billable_id)` — `user` and the
 * user's id for the rows made so far; an organization's rows name `organization`. `user_id` stays,
 * set for users only, so a user's rows still go with the user (its foreign key); it becomes
 * nullable. SQLite cannot drop a NOT NULL in place: the table is rebuilt from its own stored
 * definition (SQLite's documented 12-step procedure; nothing references `subscriptions`).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('subscriptions')
    .addColumn('billable_type', 'varchar(64)', (c) => c.notNull().defaultTo('user'))
    .execute();
  await db.schema.alterTable('subscriptions').addColumn('billable_id', 'integer').execute();
  await db
    .updateTable('subscriptions')
    .set({ billable_id: sql.ref('user_id') })
    .execute();
  if (isPostgres(db)) {
    await sql`alter table subscriptions alter column user_id drop not null`.execute(db);
    await sql`alter table subscriptions alter column billable_id set not null`.execute(db);
  } else {
    await rebuildSqlite(db);
  }
  await db.schema.dropIndex('subscriptions_user_id_name_live_unique').execute();
  await db.schema
    .createIndex('subscriptions_billable_name_live_unique')
    .unique()
    .on('subscriptions')
    .columns(['billable_type', 'billable_id', 'name'])
    .where(sql.ref('ends_at'), 'is', null)
    .execute();
  await db.schema
    .createIndex('subscriptions_billable_index')
    .on('subscriptions')
    .columns(['billable_type', 'billable_id'])
    .execute();
}

async function rebuildSqlite(db: Kysely<any>): Promise<void> {
  const { rows } = await sql<{ type: string; name: string; sql: string | null }>`
    select type, name, sql from sqlite_master where tbl_name = 'subscriptions'`.execute(db);
  const table = rows.find((row) => row.type === 'table')?.sql ?? '';
  const nullable = table
    .replace(/"user_id" integer not null/i, '"user_id" integer')
    .replace(/"billable_id" integer/i, '"billable_id" integer not null');
  if (nullable === table || !/^create table "subscriptions"/i.test(table)) {
    throw new Error('subscriptions: unexpected table definition, cannot make user_id nullable');
  }
  await sql
    .raw(nullable.replace(/^create table "subscriptions"/i, 'create table "subscriptions_rebuilt"'))
    .execute(db);
  await sql`insert into subscriptions_rebuilt select * from subscriptions`.execute(db);
  await sql`drop table subscriptions`.execute(db);
  await sql`alter table subscriptions_rebuilt rename to subscriptions`.execute(db);
  for (const index of rows) {
    if (index.type === 'index' && index.sql) await sql.raw(index.sql).execute(db);
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.deleteFrom('subscriptions').where('billable_type', '!=', 'user').execute();
  await db.schema.dropIndex('subscriptions_billable_index').execute();
  await db.schema.dropIndex('subscriptions_billable_name_live_unique').execute();
  await db.schema
    .createIndex('subscriptions_user_id_name_live_unique')
    .unique()
    .on('subscriptions')
    .columns(['user_id', 'name'])
    .where(sql.ref('ends_at'), 'is', null)
    .execute();
  await db.schema.alterTable('subscriptions').dropColumn('billable_id').execute();
  await db.schema.alterTable('subscriptions').dropColumn('billable_type').execute();
}
