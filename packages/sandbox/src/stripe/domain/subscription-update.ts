import type Stripe from 'stripe';
import { StripeSandboxError } from '../objects/errors.js';
import { makeSubscriptionItem } from '../objects/subscriptions.js';
import { snapshot } from '../store/store.js';
import { currentPeriod, nextPeriod, setPeriod } from './billing-cycle.js';
import type { SandboxContext } from './context.js';
import { buildSubscriptionInvoice } from './invoice-builder.js';
import { attemptPayment, finalizeInvoice } from './invoice-lifecycle.js';
import { mergeMetadata, type Params } from './params.js';
import { checkPendingParams, holdUpdate } from './pending-updates.js';
import { type ItemChange, prorate } from './prorations.js';
import { catalogFor, discountsFrom, itemQuantity, taxRatesFrom } from './subscription-inputs.js';
import { changeSubscription, emitChanges } from './subscription-state.js';

const intervalOf = (price: Stripe.Price) => `${price.recurring?.interval}/${price.recurring?.interval_count}`;

/**
 * Update a subscription (https://docs.stripe.com/billing/subscriptions/change-price,
 * /billing/subscriptions/prorations): swap prices or quantities through `items[n][id]`,
 * end a trial with `trial_end=now`, schedule or undo cancellation, change taxes and discounts.
 * A change of billing interval, or ending a trial, restarts the cycle and bills at once.
 * `payment_behavior`: `allow_incomplete` (the default) applies the change whatever its invoice's
 * payment does (a failure makes the subscription `past_due`); `pending_if_incomplete` applies it
 * only once that invoice is paid (`pending-updates.ts`).
 */
export function updateSubscription(ctx: SandboxContext, sub: Stripe.Subscription, p: Params): void {
  const { store } = ctx;
  if (sub.status === 'canceled' || sub.status === 'incomplete_expired') {
    const allowed = ['metadata', 'expand', 'cancellation_details'];
    if (Object.keys(p.raw).some((k) => !allowed.includes(k))) {
      throw StripeSandboxError.invalid(
        'A canceled subscription can only update its cancellation_details and metadata.',
      );
    }
  }
  const pendingIfIncomplete = p.str('payment_behavior') === 'pending_if_incomplete';
  if (pendingIfIncomplete) checkPendingParams(p);
  const now = store.now();
  const proration = p.str('proration_behavior') ?? 'create_prorations';
  const cancelAtPeriodEnd = p.bool('cancel_at_period_end');
  const trialEnd = p.timestampOrNow('trial_end', now);
  // Everything that can be refused is checked before anything changes.
  p.objects('items').forEach((item, i) => {
    const id = item.str('id');
    if (id && !sub.items.data.some((candidate) => candidate.id === id)) {
      throw StripeSandboxError.noSuch('subscription item', id, `items[${i}][id]`);
    }
    if (!id || item.has('price') || item.has('plan')) catalogFor(ctx, item, i);
  });
  const taxRates = taxRatesFrom(ctx, p);
  const discounts = discountsFrom(ctx, p, { customer: String(sub.customer), subscription: sub.id });
  let billNow = false;
  let restartCycle = false;

  const backup = snapshot(sub);
  const change = (s: Stripe.Subscription) => {
    const period = currentPeriod(s);
    const wasTrialing = s.status === 'trialing';
    const oldInterval = intervalOf(s.items.data[0]!.price);
    const changes = applyItems(ctx, s, p, period);

    if (trialEnd !== undefined) {
      if (trialEnd <= now) {
        if (wasTrialing) {
          s.status = 'active';
          s.trial_end = now;
          restartCycle = true;
          billNow = true;
        }
      } else {
        if (!wasTrialing) s.trial_start = now;
        s.status = 'trialing';
        s.trial_end = trialEnd;
        setPeriod(s, { start: wasTrialing ? period.start : now, end: trialEnd });
      }
    }
    const active = s.status === 'active' || s.status === 'past_due';
    if (active && !wasTrialing && intervalOf(s.items.data[0]!.price) !== oldInterval) {
      restartCycle = true;
      billNow = true;
    }
    if (active && !wasTrialing && proration !== 'none' && changes.length > 0) {
      const made = prorate(ctx, s, changes, period, restartCycle);
      if (made && proration === 'always_invoice') billNow = true;
    }
    if (restartCycle) {
      setPeriod(s, nextPeriod(s, now));
      s.billing_cycle_anchor = now;
    }

    if (cancelAtPeriodEnd !== undefined) {
      s.cancel_at_period_end = cancelAtPeriodEnd;
      s.cancel_at = cancelAtPeriodEnd ? currentPeriod(s).end : null;
      s.canceled_at = cancelAtPeriodEnd ? now : null;
      s.cancellation_details = {
        comment: null,
        feedback: null,
        feedback_option: null,
        reason: cancelAtPeriodEnd ? 'cancellation_requested' : null,
      };
    }
    if (taxRates) s.default_tax_rates = taxRates;
    if (discounts) s.discounts = discounts;
    if (p.has('metadata')) s.metadata = mergeMetadata(s.metadata, p.raw.metadata);
    if (p.has('description')) s.description = p.str('description') || null;
  };
  try {
    // A pending update says nothing until its invoice's payment decided whether it applies.
    if (pendingIfIncomplete) change(sub);
    else changeSubscription(ctx, sub, change);
  } catch (error) {
    // A refused item change leaves the subscription as it was.
    Object.assign(sub, backup);
    throw error;
  }

  if (billNow) {
    const invoice = buildSubscriptionInvoice(ctx, sub, {
      reason: 'subscription_update',
      period: currentPeriod(sub),
      includeItems: restartCycle,
      trial: false,
    });
    finalizeInvoice(ctx, invoice);
    const paid = invoice.status !== 'open' || attemptPayment(ctx, invoice, !pendingIfIncomplete).paid;
    if (!paid && pendingIfIncomplete) {
      holdUpdate(ctx, sub, backup, invoice);
      return;
    }
  }
  if (pendingIfIncomplete) emitChanges(ctx, sub, backup);
}

function applyItems(
  ctx: SandboxContext,
  sub: Stripe.Subscription,
  p: Params,
  period: { start: number; end: number },
): ItemChange[] {
  const changes: ItemChange[] = [];
  p.objects('items').forEach((params, i) => {
    const id = params.str('id');
    if (!id) {
      const entry = catalogFor(ctx, params, i);
      const quantity = itemQuantity(params, i, entry.price);
      const item = makeSubscriptionItem(ctx.store.now(), sub.id, entry, quantity, period);
      sub.items.data.push(item);
      // Usage is billed in arrears: adding a metered price prorates nothing.
      if (quantity !== undefined)
        changes.push({ before: null, after: { price: item.price, quantity: item.quantity ?? 1 } });
      return;
    }
    const item = sub.items.data.find((candidate) => candidate.id === id);
    if (!item) throw StripeSandboxError.noSuch('subscription item', id, `items[${i}][id]`);
    const before = { price: item.price, quantity: item.quantity ?? 1 };
    if (params.bool('deleted')) {
      sub.items.data = sub.items.data.filter((candidate) => candidate.id !== id);
      changes.push({ before, after: null });
      return;
    }
    if (params.has('price') || params.has('plan')) {
      const entry = catalogFor(ctx, params, i);
      if (entry.price.currency !== sub.currency) {
        throw StripeSandboxError.invalid(
          'All prices on a subscription must have the same currency.',
          `items[${i}][price]`,
        );
      }
      item.price = entry.price;
      item.plan = entry.plan;
    }
    const quantity = itemQuantity(params, i, item.price, before.quantity);
    if (quantity === undefined) {
      delete item.quantity;
      return;
    }
    item.quantity = quantity;
    if (item.price.id !== before.price.id || item.quantity !== before.quantity) {
      changes.push({ before, after: { price: item.price, quantity: item.quantity } });
    }
  });
  if (sub.items.data.length === 0)
    throw StripeSandboxError.invalid('A subscription must have at least one item.', 'items');
  return changes;
}
