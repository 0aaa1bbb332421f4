import type Stripe from 'stripe';
import { snapshot } from '../store/store.js';
import type { SandboxContext } from './context.js';

/**
 * Apply a change to a subscription and emit `customer.subscription.updated` with the
 * `previous_attributes` Stripe sends (the old values of the top-level fields that changed).
 */
export function changeSubscription(
  ctx: SandboxContext,
  sub: Stripe.Subscription,
  mutate: (sub: Stripe.Subscription) => void,
): void {
  const before = snapshot(sub);
  mutate(sub);
  emitChanges(ctx, sub, before);
}

/** `customer.subscription.updated` for what changed since `before` (a snapshot), if anything did. */
export function emitChanges(
  ctx: SandboxContext,
  sub: Stripe.Subscription,
  before: Stripe.Subscription,
): void {
  const was = before as unknown as Record<string, unknown>;
  const after = snapshot(sub) as unknown as Record<string, unknown>;
  const previous: Record<string, unknown> = {};
  for (const key of Object.keys(after)) {
    if (JSON.stringify(was[key]) !== JSON.stringify(after[key])) previous[key] = was[key] ?? null;
  }
  if (Object.keys(previous).length > 0) ctx.events.emit('customer.subscription.updated', sub, previous);
}

/** End a subscription now: no further invoices, open invoices of it stop retrying. */
export function cancelSubscription(
  ctx: SandboxContext,
  sub: Stripe.Subscription,
  reason: Stripe.Subscription.CancellationDetails.Reason,
): void {
  const now = ctx.store.now();
  sub.status = 'canceled';
  sub.canceled_at ??= now;
  sub.ended_at = now;
  // A change waiting for its payment never applies to an ended subscription.
  sub.pending_update = null;
  ctx.store.pendingUpdates.delete(sub.id);
  sub.cancellation_details = {
    ...(sub.cancellation_details ?? { comment: null, feedback: null, feedback_option: null }),
    reason,
  };
  for (const invoice of ctx.store.invoices.values()) {
    if (subscriptionOf(invoice) === sub.id && invoice.status === 'open') {
      invoice.next_payment_attempt = null;
      invoice.auto_advance = false;
      ctx.store.retries.delete(invoice.id);
    }
  }
  ctx.events.emit('customer.subscription.deleted', sub);
}

/** The subscription an invoice bills, from `parent.subscription_details` (API 2025-03-31 onwards). */
export function subscriptionOf(invoice: Stripe.Invoice): string | null {
  const ref = invoice.parent?.subscription_details?.subscription;
  if (!ref) return null;
  return typeof ref === 'string' ? ref : ref.id;
}
