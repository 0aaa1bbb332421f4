import type { Kysely, Updateable } from 'kysely';
import type { Clock } from '../../core/clock.js';
import { ClockKey } from '../../core/keys.js';
import { DbKey } from '../../database/keys.js';
import type { Database } from '../../database/types.js';
import type { GatewayCapabilities } from '../gateway/capabilities.js';
import type { SubscriptionRow, SubscriptionsTable } from '../tables.js';

export interface NewSubscriptionRecord {
  userId: number;
  name: string;
  providerId: string;
  plan: string;
  quantity: number | null;
  trialEndsAt: string | null;
}

/** The `subscriptions` table. Provider columns are named by the edition's capabilities. */
export class SubscriptionRepository {
  static inject = [DbKey, ClockKey] as const;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly clock: Clock,
  ) {}

  async insert(
    columns: GatewayCapabilities['columns'],
    record: NewSubscriptionRecord,
  ): Promise<SubscriptionRow> {
    const now = this.clock.now().toISOString();
    return this.db
      .insertInto('subscriptions')
      .values({
        user_id: record.userId,
        name: record.name,
        stripe_id: null,
        stripe_plan: null,
        braintree_id: null,
        braintree_plan: null,
        [columns.subscriptionId]: record.providerId,
        [columns.subscriptionPlan]: record.plan,
        quantity: record.quantity,
        trial_ends_at: record.trialEndsAt,
        ends_at: null,
        created_at: now,
        updated_at: now,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
  }

  /** The newest subscription of that name (a user may re-subscribe after one ended). */
  async findByName(userId: number, name: string): Promise<SubscriptionRow | undefined> {
    return this.db
      .selectFrom('subscriptions')
      .selectAll()
      .where('user_id', '=', userId)
      .where('name', '=', name)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .executeTakeFirst();
  }

  async find(id: number): Promise<SubscriptionRow | undefined> {
    return this.db.selectFrom('subscriptions').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /** The live (not cancelled) row of that name: at most one, by the partial unique index. */
  async findLive(userId: number, name: string): Promise<SubscriptionRow | undefined> {
    return this.db
      .selectFrom('subscriptions')
      .selectAll()
      .where('user_id', '=', userId)
      .where('name', '=', name)
      .where('ends_at', 'is', null)
      .executeTakeFirst();
  }

  async forUser(userId: number): Promise<SubscriptionRow[]> {
    return this.db
      .selectFrom('subscriptions')
      .selectAll()
      .where('user_id', '=', userId)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .execute();
  }

  async findByProviderId(
    column: 'stripe_id' | 'braintree_id',
    providerId: string,
  ): Promise<SubscriptionRow[]> {
    return this.db.selectFrom('subscriptions').selectAll().where(column, '=', providerId).execute();
  }

  async update(id: number, values: Updateable<SubscriptionsTable>): Promise<SubscriptionRow> {
    return this.db
      .updateTable('subscriptions')
      .set({ ...values, updated_at: this.clock.now().toISOString() })
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirstOrThrow();
  }
}
