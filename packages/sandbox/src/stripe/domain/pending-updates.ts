import type Stripe from 'stripe';
import { StripeSandboxError } from '../objects/errors.js';
import { type PendingUpdateState, snapshot } from '../store/store.js';
import type { SandboxContext } from './context.js';
import type { Params } from './params.js';
import { changeSubscription } from './subscription-state.js';

/**
 * `payment_behavior: 'pending_if_incomplete'` (https://docs.stripe.com/billing/subscriptions/pending-updates):
 * an update whose invoice is not paid at once is not applied. The subscription keeps cycling as it
 * was, carries the change in `pending_update` (expiring after 23 hours) and names the open invoice
 * as its `latest_invoice`; paying that invoice applies the change, voiding it or expiry drops it.
 */
export const PENDING_UPDATE_SECONDS = 23 * 3600;

/** The update parameters Stripe accepts with pending updates (its "supported attributes"). */
const PENDING_PARAMS = new Set([
  'expand',
  'payment_behavior',
  'proration_behavior',
  'proration_date',
  'billing_cycle_anchor',
  'items',
  'trial_end',
  'trial_from_plan',
  'add_invoice_items',
]);

/** What a pending update changes when it is applied. */
type Held = PendingUpdateState['held'];

/** Refuses, before anything changes, a parameter that pending updates do not support. */
export function checkPendingParams(p: Params): void {
  const unsupported = Object.keys(p.raw).find((key) => !PENDING_PARAMS.has(key));
  if (unsupported === undefined) return;
  throw StripeSandboxError.invalid(
    `You cannot pass \`${unsupported}\` when \`payment_behavior=pending_if_incomplete\`. ` +
      `Only these parameters are supported: ${[...PENDING_PARAMS].join(', ')}.`,
    unsupported,
  );
}

/**
 * The update's invoice was not paid: `sub` goes back to `before` (what it was), with the change
 * held in `pending_update` until `invoice` is paid.
 */
export function holdUpdate(
  ctx: SandboxContext,
  sub: Stripe.Subscription,
  before: Stripe.Subscription,
  invoice: Stripe.Invoice,
): void {
  const { store } = ctx;
  const applied = snapshot(sub);
  const held: Held = {
    items: applied.items,
    status: applied.status,
    trial_start: applied.trial_start,
    trial_end: applied.trial_end,
    billing_cycle_anchor: applied.billing_cycle_anchor,
  };
  store.pendingUpdates.set(sub.id, { invoice: invoice.id, held });
  // Not retried on the failed-payment schedule: the customer pays it (or not) before it expires.
  invoice.next_payment_attempt = null;
  store.retries.delete(invoice.id);
  Object.assign(sub, before);
  changeSubscription(ctx, sub, (s) => {
    s.latest_invoice = invoice.id;
    s.pending_update = {
      billing_cycle_anchor:
        held.billing_cycle_anchor !== before.billing_cycle_anchor ? held.billing_cycle_anchor : null,
      cancel_at_period_end: null,
      discount: null,
      discounts: null,
      expires_at: store.now() + PENDING_UPDATE_SECONDS,
      metadata: null,
      subscription_items: held.items.data,
      trial_end: held.trial_end !== before.trial_end ? held.trial_end : null,
      trial_from_plan: null,
    } as Stripe.Subscription.PendingUpdate;
  });
}

/** `invoice` was paid: the change it held is applied (`customer.subscription.updated`). */
export function applyPendingUpdate(
  ctx: SandboxContext,
  sub: Stripe.Subscription,
  invoice: Stripe.Invoice,
): void {
  const pending = ctx.store.pendingUpdates.get(sub.id);
  if (!pending || pending.invoice !== invoice.id) return;
  ctx.store.pendingUpdates.delete(sub.id);
  changeSubscription(ctx, sub, (s) => {
    Object.assign(s, pending.held);
    s.pending_update = null;
  });
}

/**
 * Drops the change `invoice` held (the invoice was voided, or the update expired): the
 * subscription stays as it is, without `pending_update`.
 */
export function discardPendingUpdate(
  ctx: SandboxContext,
  sub: Stripe.Subscription,
  invoice: Stripe.Invoice,
  expired: boolean,
): void {
  const pending = ctx.store.pendingUpdates.get(sub.id);
  if (!pending || pending.invoice !== invoice.id) return;
  ctx.store.pendingUpdates.delete(sub.id);
  if (expired) ctx.events.emit('customer.subscription.pending_update_expired', sub);
  changeSubscription(ctx, sub, (s) => {
    s.pending_update = null;
  });
}

/** The invoice whose payment a subscription's pending update waits for. */
export function pendingInvoiceOf(ctx: SandboxContext, sub: Stripe.Subscription): Stripe.Invoice | undefined {
  const pending = ctx.store.pendingUpdates.get(sub.id);
  return pending ? ctx.store.invoices.get(pending.invoice) : undefined;
}
