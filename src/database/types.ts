import type { ColumnType } from 'kysely';

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
// biome-ignore lint/suspicious/noEmptyInterface: every module adds its tables by augmenting it.
export interface Database {}

/** Timestamps are stored as ISO-8601 strings on both engines, so they compare and sort the same. */
export type Timestamp = ColumnType<string, string, string>;
export type NullableTimestamp = ColumnType<string | null, string | null | undefined, string | null>;
