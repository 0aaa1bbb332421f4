import type { Kysely } from 'kysely';

/**
 * The organization a credential belongs to (a client, an API key) or acts for (an access token):
 * an opaque id to oauth, put in the `org_id` claim. No foreign key, as for `user_id`: the
 * organizations module may be off, and it ends an organization's credentials itself.
 */
export async function up(db: Kysely<any>): Promise<void> {
  for (const table of ['oauth_clients', 'oauth_access_tokens', 'api_keys']) {
    await db.schema.alterTable(table).addColumn('organization_id', 'integer').execute();
    await db.schema
      .createIndex(`${table}_organization_id_index`)
      .on(table)
      .column('organization_id')
      .execute();
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['api_keys', 'oauth_access_tokens', 'oauth_clients']) {
    await db.schema.dropIndex(`${table}_organization_id_index`).execute();
    await db.schema.alterTable(table).dropColumn('organization_id').execute();
  }
}
