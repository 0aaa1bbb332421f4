import type Stripe from 'stripe';
import type { GatewaySubscription, SubscriptionSync } from '../payment-gateway.js';
import { mapSubscription } from './map.js';

const SYNCED: Partial<Record<string, Pick<SubscriptionSync, 'ended' | 'whenUnknown'>>> = {
  'customer.subscription.created': { ended: false, whenUnknown: 'retry' },
  'customer.subscription.updated': { ended: false, whenUnknown: 'retry' },
  // A deleted subscription with no row here never became one (its first payment failed).
  'customer.subscription.deleted': { ended: true, whenUnknown: 'acknowledge' },
};

/** The state a `customer.subscription.*` event carries, current as of the event's `created`. */
export function subscriptionSyncOf(event: Stripe.Event): SubscriptionSync | undefined {
  const rule = SYNCED[event.type];
  if (!rule) return undefined;
  const subscription = mapSubscription(event.data.object as Stripe.Subscription);
  const sync: SubscriptionSync = { subscription, at: new Date(event.created * 1000), ...rule };
  // `create()` stores no row for a subscription whose first payment failed (and ends it at Stripe).
  if (subscription.status === 'incomplete' || subscription.status === 'incomplete_expired')
    sync.whenUnknown = 'acknowledge';
  return sync;
}

/** Invoice events that move a subscription's status (paid: active again; failed: past due, unpaid…). */
const INVOICE_EVENTS = new Set(['invoice.payment_succeeded', 'invoice.payment_failed', 'invoice.paid']);

/**
 * An invoice event of a subscription: the receiver applies that subscription as Stripe has it now
 * (a `stub` it fetches), as of the event's `created`.
 */
export function invoiceSyncOf(
  event: Stripe.Event,
  subscriptionId: string | null,
): SubscriptionSync | undefined {
  if (!INVOICE_EVENTS.has(event.type) || !subscriptionId) return undefined;
  const stub: GatewaySubscription = {
    id: subscriptionId,
    plan: '',
    quantity: 1,
    status: 'active',
    trialEndsAt: null,
    currentPeriodEnd: null,
    cancelAtPeriodEnd: false,
    endedAt: null,
    name: null,
  };
  return {
    subscription: stub,
    at: new Date(event.created * 1000),
    ended: false,
    whenUnknown: 'retry',
    stub: true,
  };
}
