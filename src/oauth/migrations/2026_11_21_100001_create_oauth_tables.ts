import type { Kysely } from 'kysely';
import { userIdColumn, withTimestamps } from '../../database/schema.js';

/** Passport's OAuth tables, with secrets, codes and refresh tokens stored only as SHA-256 digests. */
export async function up(db: Kysely<any>): Promise<void> {
  const userId = await userIdColumn(db);
  await withTimestamps(
    db.schema
      .createTable('oauth_clients')
      .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
      .addColumn('user_id', 'integer', userId)
      .addColumn('name', 'varchar(255)', (c) => c.notNull())
      .addColumn('secret', 'varchar(64)')
      .addColumn('redirect', 'text', (c) => c.notNull())
      .addColumn('personal_access_client', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('password_client', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('revoked', 'integer', (c) => c.notNull().defaultTo(0)),
  ).execute();
  await db.schema.createIndex('oauth_clients_user_id_index').on('oauth_clients').column('user_id').execute();

  await withTimestamps(
    db.schema
      .createTable('oauth_access_tokens')
      .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
      .addColumn('user_id', 'integer', userId)
      .addColumn('client_id', 'varchar(64)', (c) =>
        c.notNull().references('oauth_clients.id').onDelete('cascade'),
      )
      .addColumn('name', 'varchar(255)')
      .addColumn('scopes', 'text', (c) => c.notNull())
      .addColumn('revoked', 'integer', (c) => c.notNull().defaultTo(0)),
  )
    .addColumn('expires_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('oauth_access_tokens_user_id_index')
    .on('oauth_access_tokens')
    .column('user_id')
    .execute();
  await db.schema
    .createIndex('oauth_access_tokens_client_id_index')
    .on('oauth_access_tokens')
    .column('client_id')
    .execute();

  await db.schema
    .createTable('oauth_refresh_tokens')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('access_token_id', 'varchar(64)', (c) =>
      c.notNull().references('oauth_access_tokens.id').onDelete('cascade'),
    )
    .addColumn('family_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('revoked', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('expires_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('oauth_refresh_tokens_access_token_id_index')
    .on('oauth_refresh_tokens')
    .column('access_token_id')
    .execute();
  await db.schema
    .createIndex('oauth_refresh_tokens_family_id_index')
    .on('oauth_refresh_tokens')
    .column('family_id')
    .execute();

  await db.schema
    .createTable('oauth_auth_codes')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('user_id', 'integer', (c) => userId(c.notNull()))
    .addColumn('client_id', 'varchar(64)', (c) =>
      c.notNull().references('oauth_clients.id').onDelete('cascade'),
    )
    .addColumn('scopes', 'text', (c) => c.notNull())
    .addColumn('redirect_uri', 'text', (c) => c.notNull())
    .addColumn('code_challenge', 'varchar(128)')
    .addColumn('code_challenge_method', 'varchar(8)')
    .addColumn('revoked', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('access_token_id', 'varchar(64)')
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('expires_at', 'varchar(32)', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('oauth_auth_codes').execute();
  await db.schema.dropTable('oauth_refresh_tokens').execute();
  await db.schema.dropTable('oauth_access_tokens').execute();
  await db.schema.dropTable('oauth_clients').execute();
}
