import type { ColumnType, Generated, Selectable } from 'kysely';
import type { NullableTimestamp, Timestamp } from '../database/types.js';

declare module '../database/types.js' {
  interface Database {
    account_tokens: AccountTokensTable;
    account_notifications: AccountNotificationsTable;
    account_devices: AccountDevicesTable;
    account_two_factor: AccountTwoFactorTable;
    account_recovery_codes: AccountRecoveryCodesTable;
    account_deletions: AccountDeletionsTable;
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

/**
 * A user's authenticator app. `confirmed_at` is null while enrolment waits for the first code;
 * `last_used_step` is the TOTP time step last accepted (a code of that step or an earlier one is a
 * replay); `failed_attempts` counts wrong codes since the last right one, `locked_until` ends a lock.
 */
export interface AccountTwoFactorTable {
  user_id: number;
  /** The seed, AES-256-GCM with the application key (`sealed.ts`). */
  sealed_secret: string;
  confirmed_at: NullableTimestamp;
  last_used_step: ColumnType<number | string | null, number | null | undefined, number | null>;
  failed_attempts: ColumnType<number, number | undefined, number>;
  locked_until: NullableTimestamp;
  created_at: Timestamp;
}

/** One recovery code of a user: only its SHA-256 is stored; `used_at` set once it is spent. */
export interface AccountRecoveryCodesTable {
  id: Generated<number>;
  user_id: number;
  code_hash: string;
  used_at: NullableTimestamp;
  created_at: Timestamp;
}

/** A deleted account: its id and the billing customer its kept invoices are under, nothing personal. */
export interface AccountDeletionsTable {
  user_id: number;
  billing_gateway: string | null;
  billing_customer_id: string | null;
  deleted_at: Timestamp;
}
