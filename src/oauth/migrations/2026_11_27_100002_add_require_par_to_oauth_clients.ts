import type { Kysely } from 'kysely';

/** `require_pushed_authorization_requests` (RFC 9126 §6): 1 refuses the client's plain authorization requests. */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('oauth_clients')
    .addColumn('require_pushed_authorization_requests', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('oauth_clients').dropColumn('require_pushed_authorization_requests').execute();
}
