import { addDays, addMonths, stampFor } from '../objects/calendar.js';
import { isApplicable, recurringAmount } from '../objects/subscriptions.js';
import type { SubscriptionRecord, SubscriptionStatus, TransactionRecord } from '../store/records.js';
import { type ChargeInput, charge, refused } from './charges.js';
import type { SandboxContext } from './context.js';

export function setStatus(
  ctx: SandboxContext,
  s: SubscriptionRecord,
  status: SubscriptionStatus,
  at = ctx.store.now(),
): void {
  s.status = status;
  s.updatedAt = at;
  s.statusHistory.push({ status, timestamp: at, price: s.price, balance: s.balance, planId: s.planId });
}

/** Moves the subscription into the period starting on `start` (paid through the day before the next bill). */
function advancePeriod(s: SubscriptionRecord, start: string): void {
  const next = addMonths(start, s.billingFrequency, s.billingDayOfMonth);
  s.billingPeriodStartDate = start;
  s.billingPeriodEndDate = addDays(next, -1);
  s.paidThroughDate = s.billingPeriodEndDate;
  s.nextBillingDate = next;
  s.currentBillingCycle += 1;
  for (const m of [...s.discounts, ...s.addOns]) m.currentBillingCycle += 1;
}

export type BillOutcome =
  | { ok: true; transaction: TransactionRecord | null }
  | { ok: false; transaction: TransactionRecord };

/**
 * Bills the period starting on `start`: the recurring amount plus any balance (a credit lowers it).
 * A zero amount creates no transaction but still moves the cycle on, as the gateway does.
 * With `amount`, charges that instead (a past-due retry of the owed balance).
 */
export function billPeriod(
  ctx: SandboxContext,
  s: SubscriptionRecord,
  start: string,
  amount?: number,
  /** A subscription's first charge, made with the customer present (3-D Secure applies). */
  first?: Pick<ChargeInput, 'customerInitiated' | 'threeDSecure'>,
): BillOutcome {
  const due = amount ?? Math.max(0, recurringAmount(s)) + s.balance;
  const pm = ctx.store.paymentMethods.get(s.paymentMethodToken);
  let transaction: TransactionRecord | null = null;
  if (due > 0) {
    if (!pm) throw new Error(`subscription ${s.id} has no payment method`);
    const next = addMonths(start, s.billingFrequency, s.billingDayOfMonth);
    transaction = charge(ctx, {
      amount: due,
      instrument: pm,
      token: pm.token,
      customerId: pm.customerId,
      currencyIsoCode: s.currencyIsoCode,
      submitForSettlement: true,
      recurring: true,
      subscription: { id: s.id, planId: s.planId, start, end: addDays(next, -1) },
      modifications: {
        discounts: s.discounts.filter(isApplicable),
        addOns: s.addOns.filter(isApplicable),
      },
      at: stampFor(start, ctx.store.clock.now()),
      ...first,
    });
    s.transactionIds.push(transaction.id);
    if (refused(transaction)) return { ok: false, transaction };
  }
  s.balance = Math.min(due, 0);
  s.failureCount = 0;
  s.pastDueSince = null;
  s.nextRetryDate = null;
  advancePeriod(s, start);
  s.updatedAt = ctx.store.now();
  return { ok: true, transaction };
}

/**
 * Records a failed charge for the period starting on `start` (Braintree "Recurring billing → Past due
 * subscriptions"): Past Due with the amount owed as balance, retried every `intervalDays`; after
 * `attempts` failures in a row the subscription is canceled (or, `retry.outcome: 'past_due'`, left
 * Past Due without further retries).
 */
export async function recordFailure(
  ctx: SandboxContext,
  s: SubscriptionRecord,
  start: string,
  owed: number,
): Promise<void> {
  const firstFailure = s.status !== 'Past Due';
  s.failureCount += 1;
  s.balance = owed;
  s.pastDueSince = s.pastDueSince ?? start;
  const attemptDate = s.nextRetryDate ?? start;
  s.nextRetryDate = addDays(attemptDate, ctx.retry.intervalDays);
  if (firstFailure) setStatus(ctx, s, 'Past Due');
  await ctx.notifySubscription('subscription_charged_unsuccessfully', s);
  if (firstFailure) await ctx.notifySubscription('subscription_went_past_due', s);
  if (s.failureCount >= ctx.retry.attempts) {
    s.nextRetryDate = null;
    if (ctx.retry.outcome === 'past_due') return;
    setStatus(ctx, s, 'Canceled');
    await ctx.notifySubscription('subscription_canceled', s);
  }
}
