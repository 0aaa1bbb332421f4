import type { Kysely } from 'kysely';

/**
 * A rotated client secret: the hash of the secret it replaced and until when that one still
 * authenticates (the grace period chosen at rotation), so a client's deployments can switch over.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('oauth_clients').addColumn('previous_secret', 'varchar(64)').execute();
  await db.schema
    .alterTable('oauth_clients')
    .addColumn('previous_secret_expires_at', 'varchar(32)')
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('oauth_clients').dropColumn('previous_secret_expires_at').execute();
  await db.schema.alterTable('oauth_clients').dropColumn('previous_secret').execute();
}
