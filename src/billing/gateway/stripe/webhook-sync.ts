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
 * The state to apply for an invoice event of a subscription: the subscription as Stripe has it now
 * (`current`, fetched by the caller), as of the event's `created`. A live subscription with no row
 * yet is retried (its creating call is storing it); one that never became live is acknowledged.
 */
export function invoiceSyncOf(
  event: Stripe.Event,
  current: GatewaySubscription | null,
): SubscriptionSync | undefined {
  if (!INVOICE_EVENTS.has(event.type) || !current) return undefined;
  const ended = current.status === 'canceled' || current.status === 'incomplete_expired';
  const live = ['active', 'trialing', 'past_due', 'unpaid'].includes(current.status);
  return {
    subscription: current,
    at: new Date(event.created * 1000),
    ended,
    whenUnknown: live ? 'retry' : 'acknowledge',
    current: true,
  };
}

/** Whether `invoiceSyncOf` wants the event's subscription fetched. */
export function isInvoiceSyncEvent(type: string): boolean {
  return INVOICE_EVENTS.has(type);
}
