import type { ColumnType, Generated, Selectable } from 'kysely';

/** `signin_passkeys`: one row per passkey (see its migration). */
export interface PasskeysTable {
  id: Generated<number>;
  user_id: number;
  /** base64url, as the authenticator gave it. */
  credential_id: string;
  /** The COSE public key, base64url. */
  public_key: string;
  /** PostgreSQL's `bigint` comes back as a string. */
  counter: ColumnType<number | string, number, number>;
  /** Comma-separated `AuthenticatorTransport`s. */
  transports: string;
  /** `singleDevice` or `multiDevice` (backup eligible), fixed when the passkey is made. */
  device_type: string;
  backed_up: number;
  name: string;
  created_at: string;
  last_used_at: string | null;
}

export type PasskeyRow = Selectable<PasskeysTable>;

export interface PasskeysDatabase {
  signin_passkeys: PasskeysTable;
}
