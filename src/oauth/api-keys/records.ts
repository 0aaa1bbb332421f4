import { InjectionKey } from '../../core/container.js';

/** A stored API key, free of any storage detail. The key itself is never stored, only its SHA-256. */
export interface ApiKeyRecord {
  /** `ak_` + 32 hex digits: what URLs and revocation messages name. */
  id: string;
  userId: number;
  name: string;
  /** `tg_live_` or `tg_test_`. */
  prefix: string;
  /** The key's last four characters, to tell keys apart in a list. */
  lastFour: string;
  scopes: string[];
  /** Requests a minute this key may make (429 beyond); null: no per-key limit. */
  rateLimitPerMinute: number | null;
  revoked: boolean;
  createdAt: string;
  updatedAt: string;
  /** Null: never expires. */
  expiresAt: string | null;
  /** When a request last used it, to the minute; null: never used. */
  lastUsedAt: string | null;
  /** The organization that owns it (it keeps working whoever leaves); null: its user's own key. */
  organizationId: number | null;
}

export type NewApiKey = Omit<ApiKeyRecord, 'revoked' | 'updatedAt' | 'lastUsedAt'> & { hash: string };

/** The API keys table, behind a small interface (`KyselyApiKeyStore` implements it). */
export interface ApiKeyStore {
  /** Throws the driver's unique violation when the user has a live key of that name. */
  insert(key: NewApiKey): Promise<ApiKeyRecord>;
  /** One lookup by the unique index on the key's SHA-256: what the guard does for an unknown key. */
  findByHash(hash: string): Promise<ApiKeyRecord | undefined>;
  find(id: string): Promise<ApiKeyRecord | undefined>;
  /** The user's keys that are not revoked, newest first (expired ones included, marked by `expiresAt`). */
  forUser(userId: number): Promise<ApiKeyRecord[]>;
  /** The organization's keys that are not revoked, newest first, whoever created them. */
  forOrganization(organizationId: number): Promise<ApiKeyRecord[]>;
  /** Marks a key revoked; false when it already was (or does not exist). */
  revoke(id: string, now: string): Promise<boolean>;
  /** Deletes every key of the user, revoked or not (their account is gone); returns how many. */
  deleteForUser(userId: number): Promise<number>;
}

export const ApiKeyStoreKey = new InjectionKey<ApiKeyStore>('ApiKeyStore');

const KEY_ID = /^ak_[0-9a-f]{32}$/;

/** Whether a string from a URL can name a key: anything else is "not found" without a query. */
export function isApiKeyId(id: string): boolean {
  return KEY_ID.test(id);
}
