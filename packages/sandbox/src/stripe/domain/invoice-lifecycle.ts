import type Stripe from 'stripe';
import { StripeSandboxError } from '../objects/errors.js';
import { makeInvoicePayment, makePaymentIntent } from '../objects/intents.js';
import type { SandboxContext } from './context.js';
import { computeTotals } from './invoice-totals.js';
import { cancelPaymentIntent, confirmPaymentIntent } from './payment-intents.js';
import { defaultInstrument } from './payment-methods.js';
import { runCharge } from './payments.js';
import { applyPendingUpdate, discardPendingUpdate } from './pending-updates.js';
import { cancelSubscription, changeSubscription, subscriptionOf } from './subscription-state.js';

/**
 * Days after the first failure on which an automatically collected invoice is retried; after
 * the last retry fails the subscription is canceled, marked unpaid or left past due (the
 * sandbox's `failedPaymentOutcome`) — the sandbox's fixed stand-in for Stripe's configurable
 * retry schedule (https://docs.stripe.com/billing/revenue-recovery/smart-retries).
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
  /** The PaymentIntent that collected (or tried to collect) it, when paid with a PaymentMethod. */
  intent?: Stripe.PaymentIntent;
}

/**
 * One collection attempt on an open invoice from the customer's default card. `syncSubscription`
 * is false while a subscription is being created (its status is decided by the caller).
 */
export function attemptPayment(
  ctx: SandboxContext,
  invoice: Stripe.Invoice,
  syncSubscription = true,
  paymentMethod?: Stripe.PaymentMethod,
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
  const instrument = paymentMethod
    ? { paymentMethod }
    : defaultInstrument(ctx, customer, subId ? ctx.store.subscriptions.get(subId) : undefined);
  if (instrument && 'paymentMethod' in instrument)
    return payWithIntent(ctx, invoice, instrument.paymentMethod.id, syncSubscription);
  const card = instrument?.card ?? null;
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

/**
 * Collect an invoice through its PaymentIntent (one per invoice, re-confirmed on each attempt),
 * off-session: a card that asks for 3-D Secure leaves it `requires_action` and the invoice open,
 * with `invoice.payment_action_required` for the application to send the customer to authenticate.
 */
function payWithIntent(
  ctx: SandboxContext,
  invoice: Stripe.Invoice,
  pmId: string,
  sync: boolean,
): PaymentOutcome {
  const { store } = ctx;
  const pi = invoiceIntent(ctx, invoice, pmId);
  if (pi.status !== 'requires_action') {
    pi.payment_method = pmId;
    pi.amount = invoice.amount_remaining;
    confirmPaymentIntent(ctx, pi, { presence: 'off_session', forInvoice: true });
  }
  const charge = pi.latest_charge ? (store.charges.get(String(pi.latest_charge)) ?? null) : null;
  if (pi.status === 'succeeded') {
    settleLink(ctx, pi);
    markPaid(ctx, invoice, charge, sync);
    return { paid: true, charge, intent: pi };
  }
  const actionRequired = pi.status === 'requires_action';
  recordFailure(
    ctx,
    invoice,
    sync,
    actionRequired ? 'invoice.payment_action_required' : 'invoice.payment_failed',
  );
  return { paid: false, charge: actionRequired ? null : charge, intent: pi };
}

/**
 * The PaymentIntent that collects `invoice` (one per invoice, linked by an invoice payment), made
 * unconfirmed on first use: `requires_confirmation` with a PaymentMethod, else
 * `requires_payment_method`.
 */
export function invoiceIntent(
  ctx: SandboxContext,
  invoice: Stripe.Invoice,
  pmId: string | null,
): Stripe.PaymentIntent {
  const { store } = ctx;
  const link = [...store.invoicePayments.values()].find(
    (p) => p.invoice === invoice.id && p.status === 'open',
  );
  const found = link ? store.paymentIntents.get(String(link.payment.payment_intent)) : undefined;
  if (found) return found;
  const pi = makePaymentIntent(store.now(), {
    amount: invoice.amount_remaining,
    currency: invoice.currency,
    customer: String(invoice.customer),
    paymentMethod: pmId,
    description:
      invoice.billing_reason === 'subscription_create'
        ? 'Subscription creation'
        : `Invoice ${invoice.number}`,
    metadata: {},
    receiptEmail: null,
  });
  store.paymentIntents.set(pi.id, pi);
  const payment = makeInvoicePayment(store.now(), invoice, pi.id);
  store.invoicePayments.set(payment.id, payment);
  ctx.events.emit('payment_intent.created', pi);
  return pi;
}

function settleLink(ctx: SandboxContext, pi: Stripe.PaymentIntent): Stripe.InvoicePayment | undefined {
  const link = [...ctx.store.invoicePayments.values()].find((p) => p.payment.payment_intent === pi.id);
  if (!link) return undefined;
  link.status = 'paid';
  link.amount_paid = pi.amount_received;
  link.status_transitions.paid_at = ctx.store.now();
  return link;
}

/**
 * A PaymentIntent that paid after the customer authenticated: its invoice is paid, and an
 * incomplete or past-due subscription becomes active (`invoice.paid`, `customer.subscription.updated`).
 */
export function settleInvoiceIntent(ctx: SandboxContext, pi: Stripe.PaymentIntent): void {
  if (pi.status !== 'succeeded') return;
  const link = settleLink(ctx, pi);
  const invoice = link ? ctx.store.invoices.get(String(link.invoice)) : undefined;
  if (invoice?.status !== 'open') return;
  const charge = pi.latest_charge ? (ctx.store.charges.get(String(pi.latest_charge)) ?? null) : null;
  markPaid(ctx, invoice, charge, true);
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
  if (sub) applyPendingUpdate(ctx, sub, invoice);
  if (sync && sub && (sub.status === 'past_due' || sub.status === 'unpaid' || sub.status === 'incomplete')) {
    changeSubscription(ctx, sub, (s) => {
      s.status = 'active';
    });
  }
}

function recordFailure(
  ctx: SandboxContext,
  invoice: Stripe.Invoice,
  sync: boolean,
  event: 'invoice.payment_failed' | 'invoice.payment_action_required' = 'invoice.payment_failed',
): void {
  const { store } = ctx;
  const now = store.now();
  invoice.attempt_count += 1;
  invoice.attempted = true;
  const retry = store.retries.get(invoice.id) ?? { firstFailureAt: now };
  store.retries.set(invoice.id, retry);
  const days = RETRY_DAYS[invoice.attempt_count - 1];
  const retries = invoice.auto_advance === true && invoice.collection_method === 'charge_automatically';
  invoice.next_payment_attempt = retries && days !== undefined ? retry.firstFailureAt + days * 86_400 : null;
  ctx.events.emit(event, invoice);
  const subId = subscriptionOf(invoice);
  const sub = subId ? store.subscriptions.get(subId) : undefined;
  if (!sync || !sub || sub.status === 'canceled' || sub.status === 'incomplete') return;
  if (retries && days === undefined) {
    const outcome = ctx.failedPaymentOutcome ?? 'cancel';
    if (outcome === 'cancel') cancelSubscription(ctx, sub, 'payment_failed');
    else if (outcome === 'unpaid')
      changeSubscription(ctx, sub, (s) => {
        s.status = 'unpaid';
      });
    // 'past_due': it stays past due, and its next renewals are charged as they fall due.
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
  // Voiding cancels the invoice's PaymentIntent: a confirmation page left open cannot pay it any more.
  for (const link of ctx.store.invoicePayments.values()) {
    if (link.invoice !== invoice.id || link.status !== 'open') continue;
    link.status = 'canceled';
    link.status_transitions.canceled_at = ctx.store.now();
    const pi = ctx.store.paymentIntents.get(String(link.payment.payment_intent));
    if (pi && pi.status !== 'succeeded' && pi.status !== 'canceled')
      cancelPaymentIntent(ctx, pi, 'void_invoice');
  }
  ctx.events.emit('invoice.voided', invoice);
  const subId = subscriptionOf(invoice);
  const sub = subId ? ctx.store.subscriptions.get(subId) : undefined;
  if (sub) discardPendingUpdate(ctx, sub, invoice, false);
}
