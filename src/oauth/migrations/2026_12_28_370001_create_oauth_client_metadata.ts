import type { Kysely } from 'kysely';

/**
 * What a registered client declared beyond redirects and grants (RFC 7591 §2, OpenID Connect
 * Dynamic Client Registration §2): the pages shown to users (`logo_uri`, `policy_uri`, `tos_uri`),
 * its public keys (`jwks` or `jwks_uri`) for `private_key_jwt` and request objects, and the
 * algorithms of its signed userinfo and request objects. Plus the `jti` of every client assertion
 * until it expires (RFC 7523 §3: a `jti` is used once).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('oauth_client_metadata')
    .addColumn('client_id', 'varchar(255)', (c) =>
      c.primaryKey().references('oauth_clients.id').onDelete('cascade'),
    )
    .addColumn('logo_uri', 'text')
    .addColumn('policy_uri', 'text')
    .addColumn('tos_uri', 'text')
    .addColumn('jwks', 'text')
    .addColumn('jwks_uri', 'text')
    .addColumn('userinfo_signed_response_alg', 'varchar(16)')
    .addColumn('request_object_signing_alg', 'varchar(16)')
    .execute();
  await db.schema
    .createTable('oauth_client_assertions')
    .addColumn('client_id', 'varchar(255)', (c) =>
      c.notNull().references('oauth_clients.id').onDelete('cascade'),
    )
    .addColumn('jti', 'varchar(255)', (c) => c.notNull())
    .addColumn('expires_at', 'varchar(32)', (c) => c.notNull())
    .addPrimaryKeyConstraint('oauth_client_assertions_pk', ['client_id', 'jti'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('oauth_client_assertions').execute();
  await db.schema.dropTable('oauth_client_metadata').execute();
}
