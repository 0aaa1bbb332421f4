import type { ColumnType, Generated, Selectable } from 'kysely';
import type { NullableTimestamp, Timestamp } from '../database/types.js';

declare module '../database/types.js' {
  interface Database {
    account_tokens: AccountTokensTable;
    account_notifications: AccountNotificationsTable;
    account_devices: AccountDevicesTable;
  }
}

declare module '../auth/tables.js' {
  interface UsersTable {
    /** When the user proved the address is theirs (the accounts module's column). */
    email_verified_at: NullableTimestamp;
  }
}

/**
 * The single-use links mailed to users (verify an e-mail address, reset a password): only the
 * SHA-256 of the token is stored. A link is for one address: it dies when the user's changes.
 */
export interface AccountTokensTable {
  id: Generated<number>;
  user_id: number;
  purpose: 'verify-email' | 'reset-password' | 'change-email';
  token_hash: string;
  email: string;
  expires_at: Timestamp;
  used_at: NullableTimestamp;
  /** A digest of what the link depends on (the password hash, for a reset); null: nothing. */
  fingerprint: ColumnType<string | null, string | null | undefined, string | null>;
  created_at: Timestamp;
}

export type AccountTokenRow = Selectable<AccountTokensTable>;

/** One row per notice queued, keyed by what it is about: the same notice is never queued twice. */
export interface AccountNotificationsTable {
  key: string;
  kind: string;
  user_id: number | null;
  mail_id: number | null;
  created_at: Timestamp;
}

/** A device (a digest of browser and address) a user signed in from. */
export interface AccountDevicesTable {
  id: Generated<number>;
  user_id: number;
  fingerprint: string;
  first_seen_at: Timestamp;
  last_seen_at: Timestamp;
}
