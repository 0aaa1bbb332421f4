import type { ColumnType, Generated, Insertable, Selectable, Updateable } from 'kysely';

/**
 * The schema as Kysely sees it. Each module adds its own tables by augmenting this interface
 * from its own `tables.ts`:
 *
 * ```ts
 * declare module '../database/types.js' {
 *   interface Database { oauth_clients: OAuthClientsTable }
 * }
 * ```
 */
export interface Database {
  users: UsersTable;
  sessions: SessionsTable;
}

/** Timestamps are stored as ISO-8601 strings on both engines, so they compare and sort the same. */
export type Timestamp = ColumnType<string, string, string>;
export type NullableTimestamp = ColumnType<string | null, string | null | undefined, string | null>;

export interface UsersTable {
  id: Generated<number>;
  name: string;
  email: string;
  password: string;
  // Billable columns (see src/billing): present on every install so both editions share one schema.
  stripe_id: string | null;
  braintree_id: string | null;
  paypal_email: string | null;
  card_brand: string | null;
  card_last_four: string | null;
  trial_ends_at: NullableTimestamp;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface SessionsTable {
  id: string;
  user_id: number | null;
  csrf_token: string;
  payload: string;
  last_activity: Timestamp;
  expires_at: Timestamp;
}

export type UserRow = Selectable<UsersTable>;
export type NewUser = Insertable<UsersTable>;
export type UserUpdate = Updateable<UsersTable>;
export type SessionRow = Selectable<SessionsTable>;
