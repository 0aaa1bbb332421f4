import type { ColumnType, Generated } from 'kysely';

declare module '../../database/types.js' {
  interface Database {
    api_usage_daily: ApiUsageDailyTable;
  }
}

/** One aggregate: the units counted for one key on one day (PostgreSQL's bigint comes back as a string). */
export interface ApiUsageDailyTable {
  id: Generated<number>;
  /** `YYYY-MM-DD`, UTC, on the application clock. */
  day: string;
  user_id: string;
  /** The organization the credential acted for; '' for a personal credential. */
  organization_id: ColumnType<string, string | undefined, string>;
  /** '' for a credential without a client (an API key, the app_token cookie). */
  client_id: string;
  credential_kind: CredentialKind;
  /** '' for the app_token cookie. */
  credential_id: string;
  /** The route's name, else `METHOD /path/{pattern}`; never the raw URL. */
  route: string;
  /** `calls`, or the application's unit (`emails`). */
  meter: string;
  units: ColumnType<number | string, number, number>;
  updated_at: string;
}

export type CredentialKind = 'oauth' | 'personal' | 'api_key' | 'cookie';
