import type { ColumnType } from 'kysely';

declare module '../database/types.js' {
  interface Database {
    rate_limits: RateLimitsTable;
  }
}

/** One counter: `expire` is epoch milliseconds (PostgreSQL's bigint comes back as a string). */
export interface RateLimitsTable {
  key: string;
  points: number;
  expire: ColumnType<number | string | null, number | null, number | null>;
}
