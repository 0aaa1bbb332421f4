import type { Generated } from 'kysely';

/** `signin_remembered_devices`: one row per remembered browser (see its migration). */
export interface RememberedDevicesTable {
  id: Generated<number>;
  user_id: number;
  /** SHA-256 (hex) of the cookie's secret. */
  secret_hash: string;
  user_agent: string | null;
  ip_address: string | null;
  created_at: string;
  last_used_at: string | null;
  expires_at: string;
}

export interface RememberedDevicesDatabase {
  signin_remembered_devices: RememberedDevicesTable;
}
