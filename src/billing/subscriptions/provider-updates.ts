import type { Kysely } from 'kysely';
import type { Clock } from '../../core/clock.js';
import type { EventDispatcher } from '../../core/events.js';
import { ClockKey, EventsKey } from '../../core/keys.js';
import type { Database } from '../../database/types.js';
import { type PaymentGateway, PaymentGatewayKey, type SubscriptionSync } from '../gateway/payment-gateway.js';
import { isStale, providerChanges } from './provider-sync.js';
import type { SubscriptionRecord } from './record.js';
import * as status from './status.js';
import { announceCancelled } from './subscription-lifecycle.js';
import { SubscriptionRepository } from './subscription-repository.js';

/**
 * What the provider reports about its subscriptions (webhooks, a payment the customer confirmed),
 * applied to the local rows: the reported state in order, and the end of one the provider ended.
 */
export class ProviderUpdates {
  static inject = [PaymentGatewayKey, SubscriptionRepository, ClockKey, EventsKey] as const;

  constructor(
    private readonly gateway: PaymentGateway,
    private readonly repository: SubscriptionRepository,
    private readonly clock: Clock,
    private readonly events?: EventDispatcher,
  ) {}

  /** The local record of a provider subscription (the newest, if a swap left several). */
  async findByProviderId(providerId: string): Promise<SubscriptionRecord | undefined> {
    return (await this.repository.findByProviderId(providerId)).at(-1);
  }

  /** Locks the local rows of a provider subscription for the rest of `db`'s transaction. */
  lockProviderRows(db: Kysely<Database>, providerId: string): Promise<void> {
    return this.repository.using(db).lockByProviderId(providerId);
  }

  /**
   * Applies the state a webhook reports to the local subscription(s) with that provider id, over
   * `db` (the receiver's transaction). State older than what a row holds is skipped. False when no
   * row has that id (the receiver then lets the provider retry, or acknowledges, as `sync` says).
   */
  async applyProviderState(db: Kysely<Database>, sync: SubscriptionSync): Promise<boolean> {
    const repository = this.repository.using(db);
    const records = await repository.findByProviderId(sync.subscription.id);
    const now = this.clock.now();
    const { supportsQuantities } = this.gateway.capabilities;
    for (const found of records) {
      // Replaced (a swap by re-creating whose local write failed): the row follows the replacement.
      const moved = sync.replacedBy
        ? await repository.update(found.id, { providerId: sync.replacedBy.id })
        : undefined;
      const record = moved ?? found;
      const state = sync.replacedBy ? { ...sync, subscription: sync.replacedBy, ended: false } : sync;
      if (isStale(record, state)) continue;
      const changes = providerChanges(record, state, now, supportsQuantities);
      await repository.updateUnlessNewer(record.id, { ...changes, providerUpdatedAt: sync.at.toISOString() });
    }
    return records.length > 0;
  }

  /**
   * The provider ended the subscription(s) with this id (the webhook controllers of every edition
   * call this): each is ended as `status.endedByProvider` says. Returns how many changed.
   */
  async markEndedByProvider(providerId: string): Promise<number> {
    const now = this.clock.now();
    let changed = 0;
    for (const record of await this.repository.findByProviderId(providerId)) {
      const endsAt = status.endedByProvider(record, now);
      if (endsAt === null) continue;
      await this.repository.update(record.id, { endsAt });
      changed++;
    }
    return changed;
  }

  /** Raises `SubscriptionCancelled` for the local records of a subscription the provider ended. */
  async announceEndedByProvider(providerId: string): Promise<void> {
    for (const record of await this.repository.findByProviderId(providerId))
      await announceCancelled(this.events, record, 'provider');
  }
}
