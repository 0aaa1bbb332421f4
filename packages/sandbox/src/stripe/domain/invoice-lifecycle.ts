import type Stripe from 'stripe';
import { StripeSandboxError } from '../objects/errors.js';
import type { SandboxContext } from './context.js';
import { computeTotals } from './invoice-totals.js';
import { defaultCard, runCharge } from './payments.js';
import { cancelSubscription, changeSubscription, subscriptionOf } from './subscription-state.js';

/**
 * Days after the first failure on which an automatically collected invoice is retried; after
 * the last retry fails the subscription is canceled — the sandbox's fixed stand-in for Stripe's
 * configurable retry schedule (https://docs.stripe.com/billing/revenue-recovery/smart-retries).
 */
export const RETRY_DAYS = [3, 5, 7] as const;

/** draft → open: number the invoice, apply the customer's balance; a $0 invoice is paid at once. */
export function finalizeInvoice(ctx: SandboxContext, invoice: Stripe.Invoice): void {
  if (invoice.status !== 'draft') {
    throw StripeSandboxError.invalid(
      `This invoice is already finalized, you can't re-finalize a non-draft invoice.`,
    );
  }
  const { store } = ctx;
  const customer = store.customer(String(invoice.customer));
  computeTotals(store, invoice);
  const now = store.now();
  const balance = customer.balance;
  const owed = invoice.total + balance;
  invoice.starting_balance = balance;
  invoice.amount_due = Math.max(0, owed);
  invoice.amount_remaining = invoice.amount_due;
  invoice.ending_balance = Math.min(0, owed);
  customer.balance = invoice.ending_balance;
  const sequence = customer.next_invoice_sequence ?? 1;
  customer.next_invoice_sequence = sequence + 1;
  invoice.number = `${customer.invoice_prefix}-${String(sequence).padStart(4, '0')}`;
  invoice.status = 'open';
  invoice.effective_at = now;
  invoice.automatically_finalizes_at = null;
  invoice.status_transitions.finalized_at = now;
  if (invoice.collection_method === 'send_invoice') invoice.due_date ??= now + 30 * 86_400;
  ctx.events.emit('invoice.finalized', invoice);
  if (invoice.amount_due === 0) markPaid(ctx, invoice, null, true);
}

export interface PaymentOutcome {
  paid: boolean;
  charge: Stripe.Charge | null;
}

/**
 * One collection attempt on an open invoice from the customer's default card. `syncSubscription`
 * is false while a subscription is being created (its status is decided by the caller).
 */
export function attemptPayment(
  ctx: SandboxContext,
  invoice: Stripe.Invoice,
  syncSubscription = true,
): PaymentOutcome {
  if (invoice.status === 'draft') finalizeInvoice(ctx, invoice);
  if (invoice.status === 'paid') return { paid: true, charge: null };
  if (invoice.status !== 'open')
    throw StripeSandboxError.invalid(`Invoice is ${invoice.status}; it cannot be paid.`);
  if (invoice.amount_remaining === 0) {
    markPaid(ctx, invoice, null, syncSubscription);
    return { paid: true, charge: null };
  }
  const customer = ctx.store.customer(String(invoice.customer));
  const subId = subscriptionOf(invoice);
  const card = defaultCard(ctx, customer, subId ? ctx.store.subscriptions.get(subId) : undefined);
  const charge = card
    ? runCharge(ctx, {
        amount: invoice.amount_remaining,
        currency: invoice.currency,
        customer: customer.id,
        card,
        description:
          invoice.billing_reason === 'subscription_create'
            ? 'Subscription creation'
            : `Invoice ${invoice.number}`,
      })
    : null;
  if (charge?.status === 'succeeded') {
    markPaid(ctx, invoice, charge, syncSubscription);
    return { paid: true, charge };
  }
  recordFailure(ctx, invoice, syncSubscription);
  return { paid: false, charge };
}

function markPaid(
  ctx: SandboxContext,
  invoice: Stripe.Invoice,
  charge: Stripe.Charge | null,
  sync: boolean,
): void {
  const now = ctx.store.now();
  if (charge) {
    invoice.attempt_count += 1;
    invoice.attempted = true;
  }
  invoice.status = 'paid';
  invoice.amount_paid = invoice.amount_due;
  invoice.amount_remaining = 0;
  invoice.auto_advance = false;
  invoice.next_payment_attempt = null;
  invoice.status_transitions.paid_at = now;
  ctx.store.retries.delete(invoice.id);
  ctx.events.emit('invoice.paid', invoice);
  ctx.events.emit('invoice.payment_succeeded', invoice);
  const subId = subscriptionOf(invoice);
  const sub = subId ? ctx.store.subscriptions.get(subId) : undefined;
  if (sync && sub && (sub.status === 'past_due' || sub.status === 'incomplete')) {
    changeSubscription(ctx, sub, (s) => {
      s.status = 'active';
    });
  }
}

function recordFailure(ctx: SandboxContext, invoice: Stripe.Invoice, sync: boolean): void {
  const { store } = ctx;
  const now = store.now();
  invoice.attempt_count += 1;
  invoice.attempted = true;
  const retry = store.retries.get(invoice.id) ?? { firstFailureAt: now };
  store.retries.set(invoice.id, retry);
  const days = RETRY_DAYS[invoice.attempt_count - 1];
  const retries = invoice.auto_advance === true && invoice.collection_method === 'charge_automatically';
  invoice.next_payment_attempt = retries && days !== undefined ? retry.firstFailureAt + days * 86_400 : null;
  ctx.events.emit('invoice.payment_failed', invoice);
  const subId = subscriptionOf(invoice);
  const sub = subId ? store.subscriptions.get(subId) : undefined;
  if (!sync || !sub || sub.status === 'canceled' || sub.status === 'incomplete') return;
  if (retries && days === undefined) {
    cancelSubscription(ctx, sub, 'payment_failed');
  } else if (sub.status === 'active' || sub.status === 'trialing') {
    changeSubscription(ctx, sub, (s) => {
      s.status = 'past_due';
    });
  }
}

/** open → void: nothing more is collected or retried. */
export function voidInvoice(ctx: SandboxContext, invoice: Stripe.Invoice): void {
  if (invoice.status !== 'open') {
    throw StripeSandboxError.invalid(`You can only void an open invoice; this one is ${invoice.status}.`);
  }
  invoice.status = 'void';
  invoice.auto_advance = false;
  invoice.next_payment_attempt = null;
  invoice.status_transitions.voided_at = ctx.store.now();
  ctx.store.retries.delete(invoice.id);
  ctx.events.emit('invoice.voided', invoice);
}
