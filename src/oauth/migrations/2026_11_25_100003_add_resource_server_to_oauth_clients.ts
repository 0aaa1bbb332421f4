import type { Kysely } from 'kysely';

/**
 * Clients marked as resource servers (`tollgate client --resource-server`) may introspect any
 * access token (RFC 7662 §4); every other client only its own tokens. Existing clients are not.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('oauth_clients')
    .addColumn('resource_server', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('oauth_clients').dropColumn('resource_server').execute();
}
