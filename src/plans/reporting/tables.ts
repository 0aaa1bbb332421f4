import type { ColumnType } from 'kysely';

declare module '../../database/types.js' {
  interface Database {
    usage_reports: UsageReportsTable;
  }
}

/** Metered usage reported to the payment provider, per owner, meter and billing period. */
export interface UsageReportsTable {
  /** The owner: a user's id, or `organization:<id>` for an organization (`ownerColumn`). */
  user_id: string;
  meter: string;
  /** The billing period's start, ISO-8601. */
  period_start: string;
  /** The running total the provider has (PostgreSQL's bigint comes back as a string). */
  reported_units: ColumnType<number | string, number, number>;
  /** A running total being sent; null when none is. */
  pending_units: ColumnType<number | string | null, number | null, number | null>;
  updated_at: string;
}
