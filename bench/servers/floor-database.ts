// The floor servers' database (bench/servers/floor.ts): kysely on better-sqlite3 or pg, as
// Tollgate connects (WAL and synchronous=NORMAL on SQLite, a pool of 10 on PostgreSQL), with the
// few tables the floor's jobs need, in `floor_*` tables beside Tollgate's in the run's database.
import SQLite from 'better-sqlite3';
import { type Generated, Kysely, PostgresDialect, SqliteDialect, sql } from 'kysely';
import pg from 'pg';

export interface FloorTables {
  floor_users: { id: Generated<number>; email: string; password: string };
  floor_login_attempts: { username: string; attempts: number; expire: number };
  floor_sessions: { id: string; payload: string; last_activity: number };
  floor_auth_codes: {
    id: string;
    user_id: number;
    client_id: string;
    scopes: string;
    redirect_uri: string;
    code_challenge: string;
    revoked: number;
    access_token_id: string | null;
    expires_at: string;
  };
  floor_access_tokens: {
    id: string;
    user_id: number | null;
    client_id: string;
    scopes: string;
    revoked: number;
    created_at: string;
    expires_at: string;
  };
  floor_refresh_tokens: {
    id: string;
    access_token_id: string;
    family_id: string;
    revoked: number;
    created_at: string;
    expires_at: string;
  };
}

/** Kysely on the database of `url`, connected as Tollgate connects (the oidc-provider peer's adapter too). */
export function connect<Tables = FloorTables>(url: string): Kysely<Tables> {
  if (/^postgres(ql)?:/.test(url)) {
    return new Kysely({
      dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: url, max: 10 }) }),
    });
  }
  const database = new SQLite(url);
  database.pragma('journal_mode = WAL');
  database.pragma('synchronous = NORMAL');
  database.pragma('busy_timeout = 5000');
  return new Kysely({ dialect: new SqliteDialect({ database }) });
}

/** The floor's tables, created once per database (the rows of a run share it, one at a time). */
export async function createTables(db: Kysely<FloorTables>, postgres: boolean): Promise<void> {
  const serial = postgres ? sql`serial primary key` : sql`integer primary key autoincrement`;
  await sql`create table if not exists floor_users (id ${serial}, email varchar(255) not null unique, password varchar(255) not null)`.execute(
    db,
  );
  await sql`create table if not exists floor_login_attempts (username varchar(255) primary key, attempts integer not null, expire bigint not null)`.execute(
    db,
  );
  await sql`create table if not exists floor_sessions (id varchar(64) primary key, payload text not null, last_activity integer not null)`.execute(
    db,
  );
  await sql`create table if not exists floor_auth_codes (id varchar(64) primary key, user_id integer not null, client_id varchar(64) not null, scopes text not null, redirect_uri text not null, code_challenge varchar(128) not null, revoked integer not null default 0, access_token_id varchar(64), expires_at varchar(32) not null)`.execute(
    db,
  );
  await sql`create table if not exists floor_access_tokens (id varchar(64) primary key, user_id integer, client_id varchar(64) not null, scopes text not null, revoked integer not null default 0, created_at varchar(32) not null, expires_at varchar(32) not null)`.execute(
    db,
  );
  await sql`create index if not exists floor_access_tokens_user_client on floor_access_tokens (user_id, client_id)`.execute(
    db,
  );
  await sql`create index if not exists floor_access_tokens_client_id on floor_access_tokens (client_id)`.execute(
    db,
  );
  await sql`create table if not exists floor_refresh_tokens (id varchar(64) primary key, access_token_id varchar(64) not null, family_id varchar(64) not null, revoked integer not null default 0, created_at varchar(32) not null, expires_at varchar(32) not null)`.execute(
    db,
  );
  await sql`create index if not exists floor_refresh_tokens_access_token_id on floor_refresh_tokens (access_token_id)`.execute(
    db,
  );
  await sql`create index if not exists floor_refresh_tokens_family_id on floor_refresh_tokens (family_id)`.execute(
    db,
  );
}
