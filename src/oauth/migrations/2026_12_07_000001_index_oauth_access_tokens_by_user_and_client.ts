import type { Kysely } from 'kysely';

/**
 * The approval page's memory (`approvalAlreadyGiven`) asks for a user's latest-expiring live token
 * for one client. With only `user_id` indexed, that read every token the user ever got, and grew
 * with each one. This index answers it from its end; it replaces the `user_id` index, whose
 * queries use its first column.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createIndex('oauth_access_tokens_user_client_expires_index')
    .on('oauth_access_tokens')
    .columns(['user_id', 'client_id', 'expires_at'])
    .execute();
  await db.schema.dropIndex('oauth_access_tokens_user_id_index').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema
    .createIndex('oauth_access_tokens_user_id_index')
    .on('oauth_access_tokens')
    .column('user_id')
    .execute();
  await db.schema.dropIndex('oauth_access_tokens_user_client_expires_index').execute();
}
