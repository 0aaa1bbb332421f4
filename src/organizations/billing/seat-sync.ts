import type { Kysely } from 'kysely';
import type { BillableStores } from '../../billing/index.js';
import type { Database } from '../../database/types.js';
import type { BillableOrganization } from './billable-organization.js';

/** Per-seat plans: which billing plans count members, and Braintree's seat add-on. */
export interface SeatOptions {
  /** Billing plan ids charged per member: the subscription's quantity is the member count. */
  plans: readonly string[];
  /** Braintree (no quantities): the add-on billed for each member after the first. */
  addOn?: string;
}

/**
 * Keeps a per-seat subscription's seats equal to the organization's member count. The count is
 * read under the organization's billing lock (`Subscription.updateSeats`), after the membership
 * change committed: of a join and a sync in flight, the sync that runs last counts last, so the
 * provider ends with the true count whatever the order.
 */
export class SeatSync {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly stores: BillableStores,
    private readonly options: SeatOptions,
  ) {}

  isSeatPlan(plan: string): boolean {
    return this.options.plans.includes(plan);
  }

  async sync(organizationId: number): Promise<void> {
    if (this.options.plans.length === 0) return;
    const organization = (await this.stores.find({ type: 'organization', id: organizationId })) as
      | BillableOrganization
      | undefined;
    for (const sub of (await organization?.subscriptions()) ?? []) {
      if (!sub.valid() || !this.isSeatPlan(sub.plan)) continue;
      await sub.updateSeats(
        () => this.count(organizationId),
        this.options.addOn ? { addOn: this.options.addOn } : {},
      );
    }
  }

  async count(organizationId: number): Promise<number> {
    const row = await this.db
      .selectFrom('organization_members')
      .select((eb) => eb.fn.countAll().as('n'))
      .where('organization_id', '=', organizationId)
      .executeTakeFirstOrThrow();
    return Math.max(1, Number(row.n));
  }
}
