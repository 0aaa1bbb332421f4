import { type Kysely, sql } from 'kysely';
import type { Database } from '../../database/types.js';
import { type UsageKey, usageKeyString } from './usage-key.js';

/** A key and the units counted for it since the last flush. */
export interface UsageCount {
  readonly key: UsageKey;
  units: number;
}

/** Where a flush goes (`KyselyUsageWriter`); tests put a failing one in front of it. */
export interface UsageWriter {
  write(counts: readonly UsageCount[], at: string): Promise<void>;
}

/**
 * Adds counts to `api_usage_daily` with one multi-row upsert: a new key is inserted, a known one
 * gets `units = units + excluded.units`, so instances flushing into one database add up.
 */
export class KyselyUsageWriter implements UsageWriter {
  constructor(private readonly db: Kysely<Database>) {}

  async write(counts: readonly UsageCount[], at: string): Promise<void> {
    if (counts.length === 0) return;
    // In one order on every instance: two flushes of the same keys in different orders lock the
    // rows crosswise, and PostgreSQL aborts one of them as a deadlock.
    const ordered = counts
      .map((count) => ({ count, id: usageKeyString(count.key) }))
      .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    await this.db
      .insertInto('api_usage_daily')
      .values(
        ordered.map(({ count: { key, units } }) => ({
          day: key.day,
          user_id: key.userId,
          organization_id: key.organizationId ?? '',
          client_id: key.clientId,
          credential_kind: key.credentialKind,
          credential_id: key.credentialId,
          route: key.route,
          meter: key.meter,
          units,
          updated_at: at,
        })),
      )
      .onConflict((oc) =>
        oc
          .columns([
            'day',
            'user_id',
            'organization_id',
            'client_id',
            'credential_kind',
            'credential_id',
            'route',
            'meter',
          ])
          .doUpdateSet({
            units: sql<number>`api_usage_daily.units + excluded.units`,
            updated_at: sql<string>`excluded.updated_at`,
          }),
      )
      .execute();
  }
}
