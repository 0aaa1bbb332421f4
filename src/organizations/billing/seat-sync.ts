import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { BillableStores } from '../../billing/index.js';
import type { Clock } from '../../core/clock.js';
import type { Database } from '../../database/types.js';
import type { BillableOrganization } from './billable-organization.js';
import './seat-sync-tables.js';

/** Per-seat plans: which billing plans count members, and Braintree's seat add-on. */
export interface SeatOptions {
  /** Billing plan ids charged per member: the subscription's quantity is the member count. */
  plans: readonly string[];
  /** Braintree (no quantities): the add-on billed for each member after the first. */
  addOn?: string;
}

/** What one `retryPending` pass did. */
export interface SeatRetryReport {
  synced: number;
  failed: number;
}

/**
 * Keeps a per-seat subscription's seats equal to the organization's member count. The count is
 * read under the organization's billing lock (`Subscription.updateSeats`), after the membership
 * change committed: of a join and a sync in flight, the sync that runs last counts last, so the
 * provider ends with the true count whatever the order. A sync is recorded as pending before it
 * calls the provider and cleared once it succeeded, so one the provider failed is retried
 * (`retryPending`, scheduled by `scheduleSeatSyncRetries`) without waiting for another change.
 */
export class SeatSync {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly stores: BillableStores,
    private readonly options: SeatOptions,
    private readonly clock: Clock,
  ) {}

  isSeatPlan(plan: string): boolean {
    return this.options.plans.includes(plan);
  }

  /** Sets the seats at the provider; throws what the provider threw, leaving the sync pending. */
  async sync(organizationId: number): Promise<void> {
    if (this.options.plans.length === 0) return;
    const organization = (await this.stores.find({ type: 'organization', id: organizationId })) as
      | BillableOrganization
      | undefined;
    const seated = ((await organization?.subscriptions()) ?? []).filter(
      (sub) => sub.valid() && this.isSeatPlan(sub.plan),
    );
    const attempt = seated.length > 0 ? await this.#pending(organizationId) : undefined;
    for (const sub of seated)
      await sub.updateSeats(
        () => this.count(organizationId),
        this.options.addOn ? { addOn: this.options.addOn } : {},
      );
    await this.#settled(organizationId, attempt);
  }

  /** Syncs every organization whose last sync did not succeed, oldest first; one failing does not stop the rest. */
  async retryPending(): Promise<SeatRetryReport> {
    const rows = await this.db
      .selectFrom('organization_seat_syncs')
      .select('organization_id')
      .orderBy('since')
      .execute();
    const report: SeatRetryReport = { synced: 0, failed: 0 };
    for (const { organization_id } of rows) {
      try {
        await this.sync(organization_id);
        report.synced++;
      } catch {
        report.failed++;
      }
    }
    return report;
  }

  async count(organizationId: number): Promise<number> {
    const row = await this.db
      .selectFrom('organization_members')
      .select((eb) => eb.fn.countAll().as('n'))
      .where('organization_id', '=', organizationId)
      .executeTakeFirstOrThrow();
    return Math.max(1, Number(row.n));
  }

  /** Marks the organization's seats unconfirmed, as of this attempt (keeping when they first were). */
  async #pending(organizationId: number): Promise<string> {
    const attempt = randomUUID();
    await this.db
      .insertInto('organization_seat_syncs')
      .values({ organization_id: organizationId, attempt, since: this.clock.now().toISOString() })
      .onConflict((oc) => oc.column('organization_id').doUpdateSet({ attempt }))
      .execute();
    return attempt;
  }

  /**
   * Clears the pending mark, unless a sync started after this one (it clears its own): a sync that
   * succeeded before a later one failed must not erase the failure. No seat subscription: nothing
   * is left to sync.
   */
  async #settled(organizationId: number, attempt: string | undefined): Promise<void> {
    let query = this.db.deleteFrom('organization_seat_syncs').where('organization_id', '=', organizationId);
    if (attempt !== undefined) query = query.where('attempt', '=', attempt);
    await query.execute();
  }
}
