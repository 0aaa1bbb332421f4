import type { Kysely } from 'kysely';

/**
 * Per-client consent and limits: `first_party` (the approval page is skipped), `scopes` (the
 * scopes it may ask for) and `grant_types` (the grants it may use), both JSON arrays; null means
 * no limit beyond what the client's kind allows.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('oauth_clients')
    .addColumn('first_party', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.alterTable('oauth_clients').addColumn('scopes', 'text').execute();
  await db.schema.alterTable('oauth_clients').addColumn('grant_types', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('oauth_clients').dropColumn('grant_types').execute();
  await db.schema.alterTable('oauth_clients').dropColumn('scopes').execute();
  await db.schema.alterTable('oauth_clients').dropColumn('first_party').execute();
}
