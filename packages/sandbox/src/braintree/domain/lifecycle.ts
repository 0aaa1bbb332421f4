import { isoDate } from '../objects/calendar.js';
import type { SubscriptionRecord } from '../store/records.js';
import { type BillOutcome, billPeriod, recordFailure, setStatus } from './billing.js';
import { settleBatch } from './charges.js';
import type { SandboxContext } from './context.js';

/** The date a subscription next needs attention: its billing date, or its retry date while past due. */
function dueDate(s: SubscriptionRecord): string | null {
  if (s.status === 'Active' || s.status === 'Pending') return s.nextBillingDate;
  if (s.status === 'Past Due') return s.nextRetryDate;
  return null;
}

/**
 * Charges a past-due subscription's balance (or `amount`). A scheduled retry counts failures toward
 * cancellation; a manual one (`subscription.retryCharge`) does not.
 */
export async function retryPastDue(
  ctx: SandboxContext,
  s: SubscriptionRecord,
  scheduled: boolean,
  amount = s.balance,
): Promise<BillOutcome> {
  const start = s.pastDueSince ?? s.nextBillingDate;
  const outcome = billPeriod(ctx, s, start, amount);
  if (outcome.ok) {
    setStatus(ctx, s, 'Active');
    await ctx.notifySubscription('subscription_charged_successfully', s);
    await ctx.notifySubscription('subscription_went_active', s);
  } else if (scheduled) {
    await recordFailure(ctx, s, start, outcome.transaction.amount);
  }
  return outcome;
}

async function bill(ctx: SandboxContext, s: SubscriptionRecord, date: string): Promise<void> {
  if (s.numberOfBillingCycles !== null && s.currentBillingCycle >= s.numberOfBillingCycles) {
    setStatus(ctx, s, 'Expired');
    await ctx.notifySubscription('subscription_expired', s);
    return;
  }
  const endsTrial = s.trialPeriod && s.currentBillingCycle === 0;
  const wasPending = s.status === 'Pending';
  const outcome = billPeriod(ctx, s, date);
  if (endsTrial) await ctx.notifySubscription('subscription_trial_ended', s);
  if (!outcome.ok) {
    await recordFailure(ctx, s, date, outcome.transaction.amount);
    return;
  }
  if (wasPending) {
    setStatus(ctx, s, 'Active');
    await ctx.notifySubscription('subscription_went_active', s);
  }
  await ctx.notifySubscription('subscription_charged_successfully', s);
}

/**
 * Processes everything due up to the clock's current date, oldest first, so a long jump bills
 * each period (and each retry) in order, with webhooks delivered as each happens.
 * Returns how many events were processed.
 */
export async function runDue(ctx: SandboxContext): Promise<number> {
  const today = isoDate(ctx.store.clock.now());
  let processed = 0;
  for (; processed < 10_000; processed++) {
    let next: { s: SubscriptionRecord; date: string } | null = null;
    for (const s of ctx.store.subscriptions.values()) {
      const date = dueDate(s);
      if (date !== null && date <= today && (next === null || date < next.date)) next = { s, date };
    }
    if (next === null) break;
    if (next.s.status === 'Past Due') await retryPastDue(ctx, next.s, true);
    else await bill(ctx, next.s, next.date);
  }
  settleBatch(ctx, today);
  return processed;
}
