import type { GatewaySubscription, SubscriptionSync } from '../gateway/payment-gateway.js';
import { endedStatus } from './provider-status.js';
import type { SubscriptionRecord, SubscriptionUpdate } from './record.js';
import * as status from './status.js';
import { secondOf } from './subscription-repository.js';

/** `providerUpdatedAt` from the provider's own time of an API answer; nothing when it is unknown. */
export function providerTime(remote: GatewaySubscription): { providerUpdatedAt?: string } {
  return remote.asOf ? { providerUpdatedAt: secondOf(remote.asOf.toISOString()) } : {};
}

/** Whether the state in `sync` is older than the one the record holds (then it is not applied). */
export function isStale(record: SubscriptionRecord, sync: SubscriptionSync): boolean {
  return record.providerUpdatedAt !== null && sync.at.toISOString() < record.providerUpdatedAt;
}

/**
 * What the provider's state in a webhook changes on the local record: status, plan, quantity,
 * trial end, and `ends_at` — ended by the provider (the one rule, `endedByProvider`), set to the
 * period end when it will cancel at period end, or cleared when the provider has it live and not
 * cancelling: resumed there, in the grace period or after it (a renewal it charged after the
 * period end must not leave a paying customer locked out). State older than the record's is never
 * applied (`isStale`), so a late event cannot undo a cancellation made here since.
 */
export function providerChanges(
  record: SubscriptionRecord,
  sync: SubscriptionSync,
  now: Date,
  supportsQuantities: boolean,
): SubscriptionUpdate {
  const remote = sync.subscription;
  const ended = sync.ended || endedStatus(remote.status);
  const changes: { -readonly [K in keyof SubscriptionUpdate]: SubscriptionUpdate[K] } = {
    status: sync.ended ? 'canceled' : remote.status,
    plan: remote.plan,
    providerUpdatedAt: sync.at.toISOString(),
  };
  if (supportsQuantities) changes.quantity = remote.quantity;
  if (remote.trialEndsAt) changes.trialEndsAt = remote.trialEndsAt.toISOString();
  if (ended) {
    const endsAt = status.endedByProvider(record, now);
    if (endsAt !== null) changes.endsAt = endsAt;
  } else if (remote.cancelAtPeriodEnd) {
    if (record.endsAt === null) changes.endsAt = (remote.currentPeriodEnd ?? now).toISOString();
  } else if (record.endsAt !== null) {
    changes.endsAt = null;
  }
  return changes;
}
