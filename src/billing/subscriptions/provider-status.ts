/**
 * The provider's status of a subscription, in one vocabulary for every edition (Stripe's words;
 * Braintree's are mapped in its gateway). Stored in the `status` column.
 */
export type SubscriptionStatus =
  | 'active'
  | 'trialing'
  | 'past_due'
  | 'unpaid'
  | 'incomplete'
  | 'incomplete_expired'
  | 'canceled'
  | 'paused';

/** No access whatever the dates say: the first payment never went through, or collection stopped. */
const NEVER_SUBSCRIBED: ReadonlySet<string> = new Set([
  'incomplete',
  'incomplete_expired',
  'unpaid',
  'paused',
]);

export interface StatusOptions {
  /** `billing.keepPastDueSubscribed`: a past-due subscription still counts (the default). */
  keepPastDueSubscribed: boolean;
}

/** Whether the provider's status alone rules access out. */
export function statusDeniesAccess(status: string | undefined, options: StatusOptions): boolean {
  if (status === undefined) return false;
  if (status === 'past_due') return !options.keepPastDueSubscribed;
  return NEVER_SUBSCRIBED.has(status);
}
