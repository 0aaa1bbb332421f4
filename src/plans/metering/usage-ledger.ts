import type { Kysely } from 'kysely';
import type { Database } from '../../database/types.js';

export interface UsageRange {
  userId: number | string;
  /** First day, `YYYY-MM-DD` (UTC), included. */
  from: string;
  /** Last day, `YYYY-MM-DD` (UTC), included. */
  to: string;
}

/** One bar of a chart: a day, the group (a client id, `kind:id` of a credential, a route) and its units. */
export interface UsagePoint {
  day: string;
  group: string;
  units: number;
}

const GROUP_COLUMNS = {
  client: 'client_id',
  credential: 'credential_id',
  route: 'route',
} as const;

/**
 * What `api_usage_daily` holds, read back: totals for a quota display or a metered price, and per-day
 * series for a chart. Reads what was flushed: add up to `plans.metering.flushMs` of delay.
 *
 * @example
 * const calls = await ledger.totals({ userId: 7, meter: 'calls', from: '2026-01-01', to: '2026-01-31' });
 */
export class UsageLedger {
  constructor(private readonly db: Kysely<Database>) {}

  /** The units of one meter over the days, in all. */
  async totals(range: UsageRange & { meter: string }): Promise<number> {
    const row = await this.db
      .selectFrom('api_usage_daily')
      .select((eb) => eb.fn.sum<number | string | null>('units').as('units'))
      .where('user_id', '=', String(range.userId))
      .where('meter', '=', range.meter)
      .where('day', '>=', range.from)
      .where('day', '<=', range.to)
      .executeTakeFirst();
    return Number(row?.units ?? 0);
  }

  /** Units per meter over the days (`{ calls: 1200, emails: 31 }`). */
  async byMeter(range: UsageRange): Promise<Record<string, number>> {
    const rows = await this.db
      .selectFrom('api_usage_daily')
      .select(['meter', (eb) => eb.fn.sum<number | string>('units').as('units')])
      .where('user_id', '=', String(range.userId))
      .where('day', '>=', range.from)
      .where('day', '<=', range.to)
      .groupBy('meter')
      .orderBy('meter')
      .execute();
    return Object.fromEntries(rows.map((r) => [r.meter, Number(r.units)]));
  }

  /** Units per day and group, oldest day first; days without usage are absent. Meter: `calls` by default. */
  async daily(
    range: UsageRange & { groupBy: keyof typeof GROUP_COLUMNS; meter?: string },
  ): Promise<UsagePoint[]> {
    const column = GROUP_COLUMNS[range.groupBy];
    let query = this.db
      .selectFrom('api_usage_daily')
      .select(['day', (eb) => eb.fn.sum<number | string>('units').as('units')])
      .where('user_id', '=', String(range.userId))
      .where('meter', '=', range.meter ?? 'calls')
      .where('day', '>=', range.from)
      .where('day', '<=', range.to)
      .groupBy('day')
      .orderBy('day');
    if (range.groupBy === 'credential')
      query = query
        .select(['credential_kind', 'credential_id'])
        .groupBy(['credential_kind', 'credential_id'])
        .orderBy('credential_kind')
        .orderBy('credential_id');
    else query = query.select(`${column} as group`).groupBy(column).orderBy(column);
    const rows = (await query.execute()) as Array<{
      day: string;
      units: number | string;
      group?: string;
      credential_kind?: string;
      credential_id?: string;
    }>;
    return rows.map((r) => ({
      day: r.day,
      group: r.group ?? `${r.credential_kind}:${r.credential_id}`,
      units: Number(r.units),
    }));
  }
}
