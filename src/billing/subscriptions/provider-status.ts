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

/**
 * The provider ended it: final at every provider (Stripe and Braintree never bring one back under
 * the same id), so an answer about that id that has it live is older than this state.
 */
export const ENDED_STATUSES: readonly SubscriptionStatus[] = ['canceled', 'incomplete_expired'];

/** Whether the provider's status says it ended the subscription. */
export function endedStatus(status: string): boolean {
  return (ENDED_STATUSES as readonly string[]).includes(status);
}
