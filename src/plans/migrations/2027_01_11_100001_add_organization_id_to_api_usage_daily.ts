import type { Kysely } from 'kysely';

/**
 * The organization a call was made for (the credential's `org_id`; '' for a personal one), so an
 * organization's usage adds up across its keys and its members' tokens for it, and a user's own
 * usage (what their plan bills) leaves it out. Part of the aggregate's key: NOT NULL, as the others.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('api_usage_daily')
    .addColumn('organization_id', 'varchar(64)', (c) => c.notNull().defaultTo(''))
    .execute();
  await db.schema.dropIndex('api_usage_daily_key_unique').execute();
  await db.schema
    .createIndex('api_usage_daily_key_unique')
    .on('api_usage_daily')
    .columns([
      'day',
      'user_id',
      'organization_id',
      'client_id',
      'credential_kind',
      'credential_id',
      'route',
      'meter',
    ])
    .unique()
    .execute();
  await db.schema
    .createIndex('api_usage_daily_organization_day_index')
    .on('api_usage_daily')
    .columns(['organization_id', 'day'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('api_usage_daily_organization_day_index').execute();
  await db.schema.dropIndex('api_usage_daily_key_unique').execute();
  await db.schema
    .createIndex('api_usage_daily_key_unique')
    .on('api_usage_daily')
    .columns(['day', 'user_id', 'client_id', 'credential_kind', 'credential_id', 'route', 'meter'])
    .unique()
    .execute();
  await db.schema.alterTable('api_usage_daily').dropColumn('organization_id').execute();
}
