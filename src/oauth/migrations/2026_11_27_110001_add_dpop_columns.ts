import type { Kysely } from 'kysely';

/**
 * RFC 9449: a public client's refresh token keeps the thumbprint of the DPoP key it was issued
 * with (`dpop_jkt`), and a client may require DPoP proofs (`dpop_bound_access_tokens`, §5.2).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('oauth_refresh_tokens').addColumn('dpop_jkt', 'varchar(64)').execute();
  await db.schema
    .alterTable('oauth_clients')
    .addColumn('dpop_bound_access_tokens', 'integer', (col) => col.notNull().defaultTo(0))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('oauth_clients').dropColumn('dpop_bound_access_tokens').execute();
  await db.schema.alterTable('oauth_refresh_tokens').dropColumn('dpop_jkt').execute();
}
