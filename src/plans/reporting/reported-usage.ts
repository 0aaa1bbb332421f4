import { type Kysely, sql } from 'kysely';
import type { BillableRef } from '../../billing/billable-user.js';
import type { Clock } from '../../core/clock.js';
import type { Database } from '../../database/types.js';
import type {} from './tables.js';

/** One owner's (a user's, an organization's) report of one meter in one billing period. */
export interface ReportKey {
  owner: BillableRef;
  meter: string;
  /** ISO-8601. */
  periodStart: string;
}

export interface ReportedUsage {
  /** The running total the provider has. */
  reported: number;
  /** A running total being sent: sent again, under the same identifier, before anything new. */
  pending: number | null;
}

/**
 * The `user_id` column's value for an owner: a user's id as it always was; another owner's
 * `type:id` (`organization:3`), which no user id can be.
 */
export function ownerColumn(owner: BillableRef): string {
  return owner.type === 'user' ? String(owner.id) : `${owner.type}:${owner.id}`;
}

/** `usage_reports`: what the provider has been told, per owner, meter and period. */
export class ReportedUsageStore {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly clock: Clock,
  ) {}

  async read(key: ReportKey): Promise<ReportedUsage> {
    const row = await this.db
      .selectFrom('usage_reports')
      .selectAll()
      .where('user_id', '=', ownerColumn(key.owner))
      .where('meter', '=', key.meter)
      .where('period_start', '=', key.periodStart)
      .executeTakeFirst();
    return {
      reported: Number(row?.reported_units ?? 0),
      pending: row?.pending_units == null ? null : Number(row.pending_units),
    };
  }

  /**
   * Marks `total` as being sent, before the provider is called — only if the record still says what
   * this run last saw: false when another run moved it meanwhile (a holder whose lock lapsed while
   * it stalled), and this run must not send.
   */
  async pend(key: ReportKey, total: number, seen: ReportedUsage): Promise<boolean> {
    const updated_at = this.clock.now().toISOString();
    await this.db
      .insertInto('usage_reports')
      .values({
        user_id: ownerColumn(key.owner),
        meter: key.meter,
        period_start: key.periodStart,
        reported_units: 0,
        pending_units: null,
        updated_at,
      })
      .onConflict((oc) => oc.columns(['user_id', 'meter', 'period_start']).doNothing())
      .execute();
    const result = await this.db
      .updateTable('usage_reports')
      .set({ pending_units: total, updated_at })
      .where('user_id', '=', ownerColumn(key.owner))
      .where('meter', '=', key.meter)
      .where('period_start', '=', key.periodStart)
      .where('reported_units', '=', seen.reported)
      .where((eb) =>
        seen.pending === null ? eb('pending_units', 'is', null) : eb('pending_units', '=', seen.pending),
      )
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /** The provider has `total`; a record already past it (another run went further) is left as it is. */
  async confirm(key: ReportKey, total: number): Promise<void> {
    await this.db
      .updateTable('usage_reports')
      .set({
        reported_units: total,
        // A larger total another run marked stays marked, to be sent again if that run died.
        pending_units: sql<
          number | null
        >`case when pending_units > ${total} then pending_units else null end`,
        updated_at: this.clock.now().toISOString(),
      })
      .where('user_id', '=', ownerColumn(key.owner))
      .where('meter', '=', key.meter)
      .where('period_start', '=', key.periodStart)
      .where('reported_units', '<', total)
      .execute();
  }
}
