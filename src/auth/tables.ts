import type { ColumnType, Generated, Insertable, Selectable, Updateable } from 'kysely';
import type { NullableTimestamp, Timestamp } from '../database/types.js';

declare module '../database/types.js' {
  interface Database {
    users: UsersTable;
    sessions: SessionsTable;
  }
}

/** A nullable column that an insert may leave out. */
type NullableColumn = ColumnType<string | null, string | null | undefined, string | null>;

export interface UsersTable {
  id: Generated<number>;
  name: string;
  email: string;
  password: string;
  // Billable columns: added by the billing module's own migration, absent without it.
  stripe_id: NullableColumn;
  braintree_id: NullableColumn;
  paypal_email: NullableColumn;
  card_brand: NullableColumn;
  card_last_four: NullableColumn;
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
  /** The client address and browser of the session's latest write (null before they were recorded). */
  ip_address: NullableColumn;
  user_agent: NullableColumn;
}

export type UserRow = Selectable<UsersTable>;
export type NewUser = Insertable<UsersTable>;
export type UserUpdate = Updateable<UsersTable>;
export type SessionRow = Selectable<SessionsTable>;
