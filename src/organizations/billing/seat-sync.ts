import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { BillingLock } from '../../billing/billing-lock.js';
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
  /** Organizations this pass synced, or cleared for having no seat subscription left. */
  synced: number;
  /** Organizations left pending: the provider (or the database) failed, or another pass held the lock too long. */
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
    /** The billing service's own (it is re-entrant only within one instance). */
    private readonly lock: BillingLock,
  ) {}

  isSeatPlan(plan: string): boolean {
    return this.options.plans.includes(plan);
  }

  /** Sets the seats at the provider; throws what the provider threw, leaving the sync pending. */
  async sync(organizationId: number): Promise<void> {
    await this.#sync(organizationId);
  }

  /**
   * Syncs every organization whose last sync did not succeed, oldest first; one failing does not
   * stop the rest. Any number of passes may run at once (instances, overlapping intervals): each
   * organization's retry runs under its billing lock and only while its pending mark is the one
   * this pass read, so the provider is asked once, by the first pass there.
   */
  async retryPending(): Promise<SeatRetryReport> {
    const rows = await this.db
      .selectFrom('organization_seat_syncs')
      .select(['organization_id', 'attempt'])
      .orderBy('since')
      .execute();
    const report: SeatRetryReport = { synced: 0, failed: 0 };
    for (const row of rows) {
      try {
        if (await this.#retry(row.organization_id, row.attempt)) report.synced++;
      } catch {
        report.failed++;
      }
    }
    return report;
  }

  /** False when another sync took or cleared the mark first: that sync answers for it. */
  #retry(organizationId: number, attempt: string): Promise<boolean> {
    return this.lock.forOwner({ type: 'organization', id: organizationId }, async () => {
      const current = await this.db
        .selectFrom('organization_seat_syncs')
        .select('attempt')
        .where('organization_id', '=', organizationId)
        .executeTakeFirst();
      if (current?.attempt !== attempt) return false;
      // No seat subscription any more (cancelled, plan changed): nothing is left to sync.
      if (!(await this.#sync(organizationId))) await this.#settled(organizationId, attempt);
      return true;
    });
  }

  /** False, touching nothing, when the organization has no valid per-seat subscription. */
  async #sync(organizationId: number): Promise<boolean> {
    if (this.options.plans.length === 0) return false;
    const organization = (await this.stores.find({ type: 'organization', id: organizationId })) as
      | BillableOrganization
      | undefined;
    const seated = ((await organization?.subscriptions()) ?? []).filter(
      (sub) => sub.valid() && this.isSeatPlan(sub.plan),
    );
    if (seated.length === 0) return false;
    const attempt = await this.#pending(organizationId);
    for (const sub of seated)
      await sub.updateSeats(
        () => this.count(organizationId),
        this.options.addOn ? { addOn: this.options.addOn } : {},
      );
    await this.#settled(organizationId, attempt);
    return true;
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

  /** Clears the pending mark, unless a sync started after this one: a success must not erase a later failure. */
  async #settled(organizationId: number, attempt: string): Promise<void> {
    await this.db
      .deleteFrom('organization_seat_syncs')
      .where('organization_id', '=', organizationId)
      .where('attempt', '=', attempt)
      .execute();
  }
}
