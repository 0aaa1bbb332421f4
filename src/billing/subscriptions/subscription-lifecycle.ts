/**
 * A subscription's trial ends soon (Stripe `customer.subscription.trial_will_end`, three days
 * before; providers without that notice get it from a scheduled scan of the trials).
 */
export class TrialWillEnd {
  constructor(
    readonly userId: number,
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
    readonly userId: number,
    /** The provider's subscription id. */
    readonly subscriptionId: string,
    readonly plan: string,
    /** ISO 8601: when access ends (now, or the end of the grace period). */
    readonly endsAt: string,
    readonly by: 'user' | 'provider',
  ) {}
}
