import type Stripe from 'stripe';
import { type Interval, periodEnd } from '../objects/periods.js';
import type { SandboxContext } from './context.js';
import { buildSubscriptionInvoice } from './invoice-builder.js';
import { attemptPayment, finalizeInvoice, type PaymentOutcome, voidInvoice } from './invoice-lifecycle.js';
import { discardPendingUpdate, pendingInvoiceOf } from './pending-updates.js';
import { cancelSubscription, changeSubscription } from './subscription-state.js';

/** `customer.subscription.trial_will_end` comes three days before a trial ends. */
const TRIAL_WARNING_SECONDS = 3 * 86_400;

/** Stripe expires an unpaid first invoice's subscription after 23 hours (`incomplete_expired`). */
const INCOMPLETE_EXPIRY_SECONDS = 23 * 3600;

export function currentPeriod(sub: Stripe.Subscription): { start: number; end: number } {
  const item = sub.items.data[0];
  return item
    ? { start: item.current_period_start, end: item.current_period_end }
    : { start: sub.start_date, end: sub.start_date };
}

export function setPeriod(sub: Stripe.Subscription, period: { start: number; end: number }): void {
  for (const item of sub.items.data) {
    item.current_period_start = period.start;
    item.current_period_end = period.end;
  }
}

/** One billing period of a price, starting at `start`. */
export function pricePeriod(price: Stripe.Price, start: number): { start: number; end: number } {
  const interval = (price.recurring?.interval ?? 'month') as Interval;
  return { start, end: periodEnd(start, interval, price.recurring?.interval_count ?? 1) };
}

/** One billing period of the subscription's (first) price, starting at `start`. */
export function nextPeriod(sub: Stripe.Subscription, start: number): { start: number; end: number } {
  const price = sub.items.data[0]?.price;
  return price ? pricePeriod(price, start) : { start, end: start };
}

/** Invoice the subscription for a period and try to collect it. */
export function billPeriod(
  ctx: SandboxContext,
  sub: Stripe.Subscription,
  reason: Stripe.Invoice.BillingReason,
  period: { start: number; end: number },
  usage?: { start: number; end: number },
): PaymentOutcome {
  const invoice = buildSubscriptionInvoice(ctx, sub, {
    reason,
    period,
    includeItems: true,
    trial: false,
    usage,
  });
  finalizeInvoice(ctx, invoice);
  return attemptPayment(ctx, invoice);
}

function endTrial(ctx: SandboxContext, sub: Stripe.Subscription): void {
  const period = nextPeriod(sub, sub.trial_end ?? ctx.store.now());
  changeSubscription(ctx, sub, (s) => {
    s.status = 'active';
    s.billing_cycle_anchor = period.start;
    setPeriod(s, period);
  });
  billPeriod(ctx, sub, 'subscription_cycle', period);
}

function renew(ctx: SandboxContext, sub: Stripe.Subscription): void {
  const ended = currentPeriod(sub);
  const period = nextPeriod(sub, ended.end);
  changeSubscription(ctx, sub, (s) => setPeriod(s, period));
  // The new period in advance, the usage of the one that ended in arrears.
  billPeriod(ctx, sub, 'subscription_cycle', period, ended);
}

interface Due {
  at: number;
  rank: number;
  run(): void;
}

function dueWork(ctx: SandboxContext): Due[] {
  const work: Due[] = [];
  for (const sub of ctx.store.subscriptions.values()) {
    const end = currentPeriod(sub).end;
    if (sub.status === 'trialing' && sub.trial_end !== null) {
      const trialEnd = sub.trial_end;
      if (
        ctx.store.trialWarnings.get(sub.id) !== trialEnd &&
        trialEnd - TRIAL_WARNING_SECONDS > sub.created
      ) {
        work.push({
          at: trialEnd - TRIAL_WARNING_SECONDS,
          rank: 0,
          run: () => {
            ctx.store.trialWarnings.set(sub.id, trialEnd);
            ctx.events.emit('customer.subscription.trial_will_end', sub);
          },
        });
      }
      if (sub.cancel_at_period_end) {
        work.push({
          at: sub.trial_end,
          rank: 0,
          run: () => cancelSubscription(ctx, sub, 'cancellation_requested'),
        });
      } else work.push({ at: sub.trial_end, rank: 0, run: () => endTrial(ctx, sub) });
    } else if (sub.status === 'active' || sub.status === 'past_due') {
      if (sub.cancel_at_period_end || (sub.cancel_at !== null && sub.cancel_at <= end)) {
        const at = sub.cancel_at ?? end;
        work.push({ at, rank: 1, run: () => cancelSubscription(ctx, sub, 'cancellation_requested') });
      } else work.push({ at: end, rank: 1, run: () => renew(ctx, sub) });
    } else if (sub.status === 'incomplete') {
      work.push({ at: sub.created + INCOMPLETE_EXPIRY_SECONDS, rank: 1, run: () => expire(ctx, sub) });
    }
  }
  for (const sub of ctx.store.subscriptions.values()) {
    const invoice = pendingInvoiceOf(ctx, sub);
    if (sub.pending_update && invoice) {
      work.push({
        at: sub.pending_update.expires_at,
        rank: 1,
        run: () => {
          discardPendingUpdate(ctx, sub, invoice, true);
          if (invoice.status === 'open') voidInvoice(ctx, invoice);
        },
      });
    }
  }
  for (const invoice of ctx.store.invoices.values()) {
    if (invoice.status === 'draft' && invoice.automatically_finalizes_at !== null) {
      const at = invoice.automatically_finalizes_at;
      work.push({
        at,
        rank: 2,
        run: () => {
          finalizeInvoice(ctx, invoice);
          if (invoice.status === 'open' && invoice.collection_method === 'charge_automatically') {
            attemptPayment(ctx, invoice);
          }
        },
      });
    }
    if (invoice.status === 'open' && invoice.next_payment_attempt !== null) {
      work.push({ at: invoice.next_payment_attempt, rank: 3, run: () => attemptPayment(ctx, invoice) });
    }
  }
  return work;
}

function expire(ctx: SandboxContext, sub: Stripe.Subscription): void {
  const latest =
    typeof sub.latest_invoice === 'string' ? ctx.store.invoices.get(sub.latest_invoice) : undefined;
  if (latest?.status === 'open') voidInvoice(ctx, latest);
  changeSubscription(ctx, sub, (s) => {
    s.status = 'incomplete_expired';
    s.ended_at = ctx.store.now();
  });
}

/**
 * Process everything due at the clock's time, earliest first, one step at a time (a step can
 * make more work due, as a renewal whose next period has also passed). Each step runs with the
 * sandbox's "now" set to the moment it was due, so objects carry the times Stripe would give them.
 */
export async function runDue(ctx: SandboxContext): Promise<number> {
  const limit = ctx.store.clockSeconds();
  let steps = 0;
  for (;;) {
    const next = dueWork(ctx)
      .filter((w) => w.at <= limit)
      .sort((a, b) => a.at - b.at || a.rank - b.rank)[0];
    if (!next) break;
    ctx.store.at(next.at, () => next.run());
    await ctx.events.flush();
    if (++steps > 10_000) throw new Error('Stripe sandbox: runDue did not settle after 10,000 steps');
  }
  return steps;
}
