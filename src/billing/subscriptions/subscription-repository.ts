import { type Kysely, NoResultError, sql, type Updateable } from 'kysely';
import type { Clock } from '../../core/clock.js';
import type { EventDispatcher } from '../../core/events.js';
import { ClockKey, EventsKey } from '../../core/keys.js';
import { DbKey } from '../../database/keys.js';
import { isPostgres } from '../../database/schema.js';
import type { Database } from '../../database/types.js';
import type { BillableRef } from '../billable-user.js';
import type { EditionColumns } from '../gateway/capabilities.js';
import { type PaymentGateway, PaymentGatewayKey } from '../gateway/payment-gateway.js';
import type { SubscriptionRow, SubscriptionsTable } from '../tables.js';
import { ENDED_STATUSES, type SubscriptionStatus } from './provider-status.js';
import type { NewSubscription, SubscriptionRecord, SubscriptionUpdate } from './record.js';
import { SubscriptionChanged } from './subscription-changed.js';

/**
 * The `subscriptions` table. The edge where the edition's columns (`capabilities.columns`) become
 * the record's `providerId` and `plan`, and back: nothing above it names them.
 */
export class SubscriptionRepository {
  static inject = [DbKey, ClockKey, PaymentGatewayKey, EventsKey] as const;
  readonly #columns: EditionColumns;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly clock: Clock,
    private readonly gateway: PaymentGateway,
    private readonly events?: EventDispatcher,
  ) {
    this.#columns = gateway.capabilities.columns;
  }

  /** The same repository over another connection (a transaction). */
  using(db: Kysely<Database>): SubscriptionRepository {
    return new SubscriptionRepository(db, this.clock, this.gateway, this.events);
  }

  async insert(subscription: NewSubscription): Promise<SubscriptionRecord> {
    const row = await this.db
      .insertInto('subscriptions')
      .values(this.newRow(subscription))
      .returningAll()
      .executeTakeFirstOrThrow();
    return this.changed(this.toRecord(row));
  }

  /**
   * Inserts the row unless the user already has a live subscription of that name (the partial
   * unique index decides, so concurrent callers make one row): undefined when one was there.
   */
  async insertUnlessLive(subscription: NewSubscription): Promise<SubscriptionRecord | undefined> {
    const row = await this.db
      .insertInto('subscriptions')
      .values(this.newRow(subscription))
      .onConflict((oc) => oc.doNothing())
      .returningAll()
      .executeTakeFirst();
    return row && this.changed(this.toRecord(row));
  }

  private newRow(subscription: NewSubscription) {
    const now = this.clock.now().toISOString();
    return {
      user_id: subscription.billableType === 'user' ? subscription.billableId : null,
      billable_type: subscription.billableType,
      billable_id: subscription.billableId,
      name: subscription.name,
      stripe_id: null,
      stripe_plan: null,
      braintree_id: null,
      braintree_plan: null,
      [this.#columns.subscriptionId]: subscription.providerId,
      [this.#columns.subscriptionPlan]: subscription.plan,
      quantity: subscription.quantity,
      trial_ends_at: subscription.trialEndsAt,
      ends_at: null,
      status: subscription.status,
      past_due_since: subscription.status === 'past_due' ? now : null,
      // The provider's time, never ours: webhooks are ordered against it (`isStale`).
      provider_updated_at: subscription.providerUpdatedAt ?? null,
      created_at: now,
      updated_at: now,
    };
  }

  /** The newest subscription of that name (a user may re-subscribe after one ended). */
  async findByName(owner: BillableRef | number, name: string): Promise<SubscriptionRecord | undefined> {
    const { type, id } = asRef(owner);
    const row = await this.db
      .selectFrom('subscriptions')
      .selectAll()
      .where('billable_type', '=', type)
      .where('billable_id', '=', id)
      .where('name', '=', name)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .executeTakeFirst();
    return row && this.toRecord(row);
  }

  async find(id: number): Promise<SubscriptionRecord | undefined> {
    const row = await this.db.selectFrom('subscriptions').selectAll().where('id', '=', id).executeTakeFirst();
    return row && this.toRecord(row);
  }

  /** The live (not cancelled) row of that name: at most one, by the partial unique index. */
  async findLive(owner: BillableRef, name: string): Promise<SubscriptionRecord | undefined> {
    const row = await this.db
      .selectFrom('subscriptions')
      .selectAll()
      .where('billable_type', '=', owner.type)
      .where('billable_id', '=', owner.id)
      .where('name', '=', name)
      .where('ends_at', 'is', null)
      .executeTakeFirst();
    return row && this.toRecord(row);
  }

  /**
   * Every owner (users, organizations: any billable type) with a subscription of that name on one
   * of `plans` that has not ended by `now`, users first, each once.
   */
  async ownersOn(name: string, plans: readonly string[], now: Date): Promise<BillableRef[]> {
    if (plans.length === 0) return [];
    const rows = await this.db
      .selectFrom('subscriptions')
      .select(['billable_type', 'billable_id'])
      .distinct()
      .where('name', '=', name)
      .where(this.#columns.subscriptionPlan, 'in', [...plans])
      .where((eb) => eb.or([eb('ends_at', 'is', null), eb('ends_at', '>', now.toISOString())]))
      .execute();
    const typeOrder = (type: string) => (type === 'user' ? '' : type);
    return rows
      .map((row) => ({ type: row.billable_type, id: Number(row.billable_id) }))
      .sort((a, b) => typeOrder(a.type).localeCompare(typeOrder(b.type)) || a.id - b.id);
  }

  /** Newest first. */
  async forUser(userId: number): Promise<SubscriptionRecord[]> {
    return this.forOwner({ type: 'user', id: userId });
  }

  /** Newest first. */
  async forOwner(owner: BillableRef): Promise<SubscriptionRecord[]> {
    const rows = await this.db
      .selectFrom('subscriptions')
      .selectAll()
      .where('billable_type', '=', owner.type)
      .where('billable_id', '=', owner.id)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .execute();
    return rows.map((row) => this.toRecord(row));
  }

  async findByProviderId(providerId: string): Promise<SubscriptionRecord[]> {
    const rows = await this.db
      .selectFrom('subscriptions')
      .selectAll()
      .where(this.#columns.subscriptionId, '=', providerId)
      .execute();
    return rows.map((row) => this.toRecord(row));
  }

  /**
   * Inside a transaction: locks the rows of a provider subscription until it ends (PostgreSQL
   * `FOR UPDATE`; on SQLite a write that changes nothing takes the one writer's lock, which holds
   * across processes too: a `billing:reconcile` run beside the server), so a write from the app's
   * own API answer waits for whoever read the provider's state first.
   */
  async lockByProviderId(providerId: string): Promise<void> {
    if (!isPostgres(this.db)) {
      await this.db
        .updateTable('subscriptions')
        .set((eb) => ({ id: eb.ref('id') }))
        .where(this.#columns.subscriptionId, '=', providerId)
        .execute();
      return;
    }
    await this.db
      .selectFrom('subscriptions')
      .select('id')
      .where(this.#columns.subscriptionId, '=', providerId)
      .forUpdate()
      .execute();
  }

  /**
   * `unlessEnded`: the provider subscription a live API answer in `changes` is about. The row is
   * then left as it is if it holds that subscription ended: a webhook stored the provider's end
   * after the answer came (an ended subscription never comes back, so the answer is the older
   * state). Checked in the UPDATE itself, as `updateUnlessNewer` checks; the row is returned as is.
   */
  async update(
    id: number,
    changes: SubscriptionUpdate,
    options: { unlessEnded?: string } = {},
  ): Promise<SubscriptionRecord> {
    const before = await this.find(id);
    const { unlessEnded } = options;
    const query = this.db
      .updateTable('subscriptions')
      .set({
        ...this.toColumns(changes),
        ...this.pastDue(changes),
        updated_at: this.clock.now().toISOString(),
      })
      .where('id', '=', id)
      .$if(unlessEnded !== undefined, (q) =>
        q.where((eb) =>
          eb.or([
            eb(this.#columns.subscriptionId, 'is', null),
            eb(this.#columns.subscriptionId, '!=', unlessEnded!),
            eb('status', 'not in', [...ENDED_STATUSES]),
          ]),
        ),
      )
      .returningAll();
    const row = await query.executeTakeFirst();
    if (row) return this.changed(this.toRecord(row), before);
    const kept = unlessEnded === undefined ? undefined : await this.find(id);
    if (!kept) throw new NoResultError(query.toOperationNode());
    return kept;
  }

  /**
   * Applies provider state current as of `changes.providerUpdatedAt`, unless the row already holds
   * newer state: checked in the UPDATE itself, so two deliveries at once cannot apply an older one
   * last. Returns the record, or undefined when the row holds newer state.
   */
  async updateUnlessNewer(id: number, changes: SubscriptionUpdate & { providerUpdatedAt: string }) {
    const before = await this.find(id);
    const row = await this.db
      .updateTable('subscriptions')
      .set({
        ...this.toColumns(changes),
        ...this.pastDue(changes),
        updated_at: this.clock.now().toISOString(),
      })
      .where('id', '=', id)
      .where((eb) =>
        eb.or([
          eb('provider_updated_at', 'is', null),
          eb('provider_updated_at', '<=', changes.providerUpdatedAt),
        ]),
      )
      .returningAll()
      .executeTakeFirst();
    return row && this.changed(this.toRecord(row), before);
  }

  /**
   * Tells listeners (the plan resolver's cache) that the user's subscription changed, so an
   * upgrade or a downgrade takes effect at the next request; `before`, the row as it was, says
   * whether anything a user would see changed (a sync of the same state changes nothing).
   */
  private async changed(
    record: SubscriptionRecord,
    before?: SubscriptionRecord,
  ): Promise<SubscriptionRecord> {
    const unchanged = before !== undefined && sameState(before, record);
    await this.events?.dispatch(
      new SubscriptionChanged(record.userId ?? undefined, record.id, record.plan, ownerOf(record), unchanged),
    );
    return record;
  }

  private toRecord(row: SubscriptionRow): SubscriptionRecord {
    return {
      id: row.id,
      billableType: row.billable_type,
      billableId: row.billable_id,
      userId: row.billable_type === 'user' ? row.billable_id : null,
      name: row.name,
      providerId: row[this.#columns.subscriptionId] ?? '',
      plan: row[this.#columns.subscriptionPlan] ?? '',
      quantity: row.quantity,
      trialEndsAt: row.trial_ends_at,
      endsAt: row.ends_at,
      status: row.status as SubscriptionStatus,
      providerUpdatedAt: row.provider_updated_at,
      pastDueSince: row.past_due_since,
      createdAt: row.created_at,
      updatedAt: row.updated_at,
    };
  }

  /** `past_due_since`: kept from the first failed renewal while it stays past due, cleared after. */
  private pastDue(changes: SubscriptionUpdate) {
    if (changes.status === undefined) return {};
    if (changes.status !== 'past_due') return { past_due_since: null };
    return { past_due_since: sql<string>`coalesce(past_due_since, ${this.clock.now().toISOString()})` };
  }

  private toColumns(changes: SubscriptionUpdate): Updateable<SubscriptionsTable> {
    const values: Updateable<SubscriptionsTable> = {};
    if (changes.providerId !== undefined) values[this.#columns.subscriptionId] = changes.providerId;
    if (changes.plan !== undefined) values[this.#columns.subscriptionPlan] = changes.plan;
    if (changes.quantity !== undefined) values.quantity = changes.quantity;
    if (changes.trialEndsAt !== undefined) values.trial_ends_at = changes.trialEndsAt;
    if (changes.endsAt !== undefined) values.ends_at = changes.endsAt;
    if (changes.status !== undefined) values.status = changes.status;
    if (changes.providerUpdatedAt !== undefined) values.provider_updated_at = changes.providerUpdatedAt;
    return values;
  }
}

/** A user's id stands for the user (the plan resolver asks by user id). */
function asRef(owner: BillableRef | number): BillableRef {
  return typeof owner === 'number' ? { type: 'user', id: owner } : owner;
}

/** Who a record bills. */
export function ownerOf(record: Pick<SubscriptionRecord, 'billableType' | 'billableId'>): BillableRef {
  return { type: record.billableType, id: record.billableId };
}

/** An API answer is as fresh as the second it came in (webhook event times have whole seconds). */
export function secondOf(iso: string): string {
  return `${iso.slice(0, 19)}.000Z`;
}

/** Whether two versions of a row hold the same subscription (the provider's bookkeeping aside). */
function sameState(a: SubscriptionRecord, b: SubscriptionRecord): boolean {
  return (
    a.name === b.name &&
    a.providerId === b.providerId &&
    a.plan === b.plan &&
    a.quantity === b.quantity &&
    a.status === b.status &&
    a.trialEndsAt === b.trialEndsAt &&
    a.endsAt === b.endsAt
  );
}
