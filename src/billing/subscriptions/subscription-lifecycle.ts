import type { EventDispatcher } from '../../core/events.js';
import type { BillableRef } from '../billable-user.js';
import type { SubscriptionRecord } from './record.js';

/**
 * A subscription's trial ends soon (Stripe `customer.subscription.trial_will_end`, three days
 * before; providers without that notice get it from a scheduled scan of the trials).
 */
export class TrialWillEnd {
  constructor(
    /** The user billed; undefined when the owner is another billable model. */
    readonly userId: number | undefined,
    /** The provider's subscription id. */
    readonly subscriptionId: string,
    readonly plan: string,
    /** ISO 8601. */
    readonly trialEndsAt: string,
  ) {}
}

/**
 * A subscription was cancelled: by its owner (`cancel()`, `cancelNow()`; `endsAt` is when access
 * ends) or by the provider (after the last failed retry, or its billing cycles ran out).
 */
export class SubscriptionCancelled {
  constructor(
    /** The user billed; undefined when the owner is another billable model (`owner` names it). */
    readonly userId: number | undefined,
    /** The provider's subscription id. */
    readonly subscriptionId: string,
    readonly plan: string,
    /** ISO 8601: when access ends (now, or the end of the grace period). */
    readonly endsAt: string,
    readonly by: 'user' | 'provider',
    readonly owner: BillableRef = { type: 'user', id: userId ?? 0 },
  ) {}
}

/** Raises `SubscriptionCancelled` for a record that now has an end (none for one that has not). */
export async function announceCancelled(
  events: EventDispatcher | undefined,
  record: SubscriptionRecord,
  by: 'user' | 'provider',
): Promise<void> {
  if (record.endsAt === null) return;
  await events?.dispatch(
    new SubscriptionCancelled(record.userId ?? undefined, record.providerId, record.plan, record.endsAt, by, {
      type: record.billableType,
      id: record.billableId,
    }),
  );
}
