/**
 * A subscription row was written (created, swapped, cancelled, resumed, synced from the provider):
 * dispatched after the write, so caches of what the user is subscribed to can forget it.
 */
export class SubscriptionChanged {
  constructor(
    readonly userId: number,
    readonly subscriptionId: number,
    /** The plan the row now holds (the provider's plan id). */
    readonly plan: string,
  ) {}
}
