import type { CurrencyUnit } from '../../money.js';
import { daysBetween } from './dates.js';
import { inTrial, isPaid } from './map.js';
import { type DiscountAdd, PLAN_CREDIT } from './pricing.js';
import type { BtSubscription } from './types.js';

/**
 * What the customer paid for the current period and has not used, in minor units: what the period
 * cost them — its successful charges and the plan credit spent on it (a charge the credit covered
 * whole makes no transaction) — × the share of its days still to run (today included), plus any
 * plan credit not yet spent. Zero in a trial. Braintree cannot change a subscription's billing
 * frequency (error 91922), so a yearly↔monthly swap replaces the subscription and carries this over
 * as the `plan-credit` discount — Cashier-Braintree's approach, with the exact unused value.
 */
export function unusedValue(sub: BtSubscription, today: string, unit: CurrencyUnit): number {
  if (sub.status !== 'Active' || inTrial(sub)) return 0;
  const start = sub.billingPeriodStartDate;
  const end = sub.billingPeriodEndDate;
  if (!start || !end) return 0;
  const days = daysBetween(start, end) + 1;
  const left = Math.min(days, Math.max(0, daysBetween(today, end) + 1));
  const paid = (sub.transactions ?? [])
    .filter(
      (t) => isPaid(t.status) && t.subscription?.billingPeriodStartDate?.slice(0, 10) === start.slice(0, 10),
    )
    .reduce((sum, t) => sum + unit.minor(t.amount), 0);
  let spentThisPeriod = 0;
  let unspent = 0;
  for (const d of sub.discounts ?? []) {
    if (d.id !== PLAN_CREDIT || d.numberOfBillingCycles == null) continue;
    const used = d.currentBillingCycle ?? 0;
    // A credit's current cycle is the subscription's: it paid for this period while it runs.
    if (used >= 1 && used <= d.numberOfBillingCycles) spentThisPeriod += unit.minor(d.amount);
    unspent += unit.minor(d.amount) * Math.max(0, d.numberOfBillingCycles - used);
  }
  return Math.round(((paid + spentThisPeriod) * left) / days) + unspent;
}

/**
 * The `plan-credit` discount worth `credit` on a subscription billing `recurring` each cycle: one
 * cycle when the credit fits in one charge, else spread evenly over as many cycles as it takes
 * (rounded down to the minor unit, so the customer is never credited more than was unused).
 */
export function planCredit(credit: number, recurring: number, unit: CurrencyUnit): DiscountAdd | null {
  if (credit <= 0 || recurring <= 0) return null;
  const cycles = Math.ceil(credit / recurring);
  return {
    inheritedFromId: PLAN_CREDIT,
    amount: unit.major(Math.floor(credit / cycles)),
    numberOfBillingCycles: cycles,
    neverExpires: false,
  };
}
