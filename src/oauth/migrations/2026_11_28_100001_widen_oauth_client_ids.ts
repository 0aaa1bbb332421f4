import { type Kysely, sql } from 'kysely';
import { isPostgres } from '../../database/schema.js';

/** The tables whose `client_id` refers to `oauth_clients.id`. */
const REFERRING = [
  'oauth_access_tokens',
  'oauth_auth_codes',
  'oauth_device_codes',
  'oauth_client_registrations',
  'oauth_pushed_requests',
];

/**
 * Client ID Metadata Documents: a client id may be the URL of the client's metadata document, up
 * to 255 characters. PostgreSQL enforces `varchar(64)`, so the id and every column referring to
 * it widen (a length increase rewrites nothing); SQLite does not enforce a declared length.
 */
export async function up(db: Kysely<any>): Promise<void> {
  if (!isPostgres(db)) return;
  await sql`alter table oauth_clients alter column id type varchar(255)`.execute(db);
  for (const table of REFERRING) {
    await sql`alter table ${sql.table(table)} alter column client_id type varchar(255)`.execute(db);
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  if (!isPostgres(db)) return;
  for (const table of REFERRING) {
    await sql`alter table ${sql.table(table)} alter column client_id type varchar(64)`.execute(db);
  }
  await sql`alter table oauth_clients alter column id type varchar(64)`.execute(db);
}
