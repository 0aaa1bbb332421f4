import type { SubscriptionStatus } from './provider-status.js';

/**
 * A subscription as the billing layer works with it, whatever the edition. The repository maps the
 * edition's columns (`stripe_id`/`stripe_plan` or `braintree_id`/`braintree_plan`) to `providerId`
 * and `plan` once, where it reads and writes the table; nothing else names those columns.
 */
export interface SubscriptionRecord {
  readonly id: number;
  /** Who is billed: `user`, or another billable model's type (`organization`). */
  readonly billableType: string;
  readonly billableId: number;
  /** The owner's id when the owner is a user; null for any other billable model. */
  readonly userId: number | null;
  readonly name: string;
  /** The subscription's id at the payment provider. */
  readonly providerId: string;
  /** The plan's id at the payment provider. */
  readonly plan: string;
  /** Null where the edition has no quantities. */
  readonly quantity: number | null;
  readonly trialEndsAt: string | null;
  readonly endsAt: string | null;
  /** The provider's status, as of the last answer or webhook applied. */
  readonly status: SubscriptionStatus;
  /**
   * When the provider's state last applied here was current (a webhook event's time, or the time of
   * an API answer, to the second): an older event is not applied over it.
   */
  readonly providerUpdatedAt: string | null;
  /** When it became `past_due` (null while it is not; absent on records built elsewhere). */
  readonly pastDueSince?: string | null;
  readonly createdAt: string;
  readonly updatedAt: string;
}

/**
 * A new row: the rest is filled in by the repository. `providerUpdatedAt`: the provider's time its
 * state is current at (see `GatewaySubscription.asOf`), when known.
 */
export type NewSubscription = Omit<
  SubscriptionRecord,
  'id' | 'userId' | 'endsAt' | 'providerUpdatedAt' | 'pastDueSince' | 'createdAt' | 'updatedAt'
> & { readonly providerUpdatedAt?: string | null };

/** What an operation changes on a stored subscription (`updatedAt` always moves). */
export type SubscriptionUpdate = Partial<
  Pick<
    SubscriptionRecord,
    'providerId' | 'plan' | 'quantity' | 'trialEndsAt' | 'endsAt' | 'status' | 'providerUpdatedAt'
  >
>;

/** A time as a record stores it: ISO 8601, or null. */
export function isoOrNull(date: Date | string | null): string | null {
  if (date === null) return null;
  return typeof date === 'string' ? date : date.toISOString();
}
