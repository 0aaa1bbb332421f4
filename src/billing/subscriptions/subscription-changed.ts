import type { BillableRef } from '../billable-user.js';

/**
 * A subscription row was written (created, swapped, cancelled, resumed, synced from the provider):
 * dispatched after the write, so caches of what the owner is subscribed to can forget it.
 */
export class SubscriptionChanged {
  constructor(
    /** The user billed; undefined when the owner is another billable model (`owner` names it). */
    readonly userId: number | undefined,
    readonly subscriptionId: number,
    /** The plan the row now holds (the provider's plan id). */
    readonly plan: string,
    readonly owner: BillableRef = { type: 'user', id: userId ?? 0 },
    /** The write stored what the row already held (a redelivered or repeated sync): nothing to audit. */
    readonly unchanged = false,
  ) {}
}
