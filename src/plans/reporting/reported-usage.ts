import type { Kysely } from 'kysely';
import type { Clock } from '../../core/clock.js';
import type { Database } from '../../database/types.js';
import type {} from './tables.js';

/** One user's report of one meter in one billing period. */
export interface ReportKey {
  userId: number;
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

/** `usage_reports`: what the provider has been told, per user, meter and period. */
export class ReportedUsageStore {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly clock: Clock,
  ) {}

  async read(key: ReportKey): Promise<ReportedUsage> {
    const row = await this.db
      .selectFrom('usage_reports')
      .selectAll()
      .where('user_id', '=', String(key.userId))
      .where('meter', '=', key.meter)
      .where('period_start', '=', key.periodStart)
      .executeTakeFirst();
    return {
      reported: Number(row?.reported_units ?? 0),
      pending: row?.pending_units == null ? null : Number(row.pending_units),
    };
  }

  /** Marks `total` as being sent, before the provider is called. */
  async pend(key: ReportKey, total: number): Promise<void> {
    const updated_at = this.clock.now().toISOString();
    await this.db
      .insertInto('usage_reports')
      .values({
        user_id: String(key.userId),
        meter: key.meter,
        period_start: key.periodStart,
        reported_units: 0,
        pending_units: total,
        updated_at,
      })
      .onConflict((oc) =>
        oc.columns(['user_id', 'meter', 'period_start']).doUpdateSet({ pending_units: total, updated_at }),
      )
      .execute();
  }

  /** The provider has `total`. */
  async confirm(key: ReportKey, total: number): Promise<void> {
    await this.db
      .updateTable('usage_reports')
      .set({ reported_units: total, pending_units: null, updated_at: this.clock.now().toISOString() })
      .where('user_id', '=', String(key.userId))
      .where('meter', '=', key.meter)
      .where('period_start', '=', key.periodStart)
      .execute();
  }
}
