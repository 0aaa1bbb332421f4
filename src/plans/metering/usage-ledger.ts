import type { Kysely, SelectQueryBuilder } from 'kysely';
import { ConfigurationError } from '../../core/errors.js';
import type { Database } from '../../database/types.js';

/**
 * Whose usage over which days: a user's own (their personal credentials' — what their plan
 * counts and bills), or with `organizationId` an organization's (its keys' and its members' tokens
 * for it), narrowed to one member when `userId` is given too.
 */
export interface UsageRange {
  userId?: number | string;
  organizationId?: number;
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
  member: 'user_id',
} as const;

/** A group (`groupBy`) and its units over the whole range. */
export interface UsageShare {
  group: string;
  units: number;
}

/** The rows of the range's holder: the organization's, or the user's personal ones. */
function scoped<O>(
  query: SelectQueryBuilder<Database, 'api_usage_daily', O>,
  range: UsageRange,
): SelectQueryBuilder<Database, 'api_usage_daily', O> {
  const { userId, organizationId } = range;
  if (organizationId === undefined && userId === undefined)
    throw new ConfigurationError('A usage range names a user or an organization.');
  let scopedQuery = query.where(
    'organization_id',
    '=',
    organizationId === undefined ? '' : String(organizationId),
  );
  if (userId !== undefined) scopedQuery = scopedQuery.where('user_id', '=', String(userId));
  return scopedQuery.where('day', '>=', range.from).where('day', '<=', range.to);
}

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
    const row = await scoped(
      this.db
        .selectFrom('api_usage_daily')
        .select((eb) => eb.fn.sum<number | string | null>('units').as('units'))
        .where('meter', '=', range.meter),
      range,
    ).executeTakeFirst();
    return Number(row?.units ?? 0);
  }

  /** Units per meter over the days (`{ calls: 1200, emails: 31 }`). */
  async byMeter(range: UsageRange): Promise<Record<string, number>> {
    const rows = await scoped(
      this.db
        .selectFrom('api_usage_daily')
        .select(['meter', (eb) => eb.fn.sum<number | string>('units').as('units')]),
      range,
    )
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
    let query = scoped(
      this.db
        .selectFrom('api_usage_daily')
        .select(['day', (eb) => eb.fn.sum<number | string>('units').as('units')])
        .where('meter', '=', range.meter ?? 'calls'),
      range,
    )
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

  /**
   * Units per group over the whole range, most first (`member`: per user id; `credential`:
   * `kind:id`). Meter: `calls` by default.
   */
  async shares(
    range: UsageRange & { groupBy: keyof typeof GROUP_COLUMNS; meter?: string },
  ): Promise<UsageShare[]> {
    const byDay = await this.daily(range);
    const units = new Map<string, number>();
    for (const point of byDay) units.set(point.group, (units.get(point.group) ?? 0) + point.units);
    return [...units]
      .map(([group, total]) => ({ group, units: total }))
      .sort((a, b) => b.units - a.units || (a.group < b.group ? -1 : 1));
  }
}
