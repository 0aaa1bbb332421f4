/** Billing periods: the calendar arithmetic Stripe uses for subscription cycles. */
export type Interval = 'day' | 'week' | 'month' | 'year';

/**
 * Add calendar months in UTC, clamping the day to the target month's length — Stripe's billing
 * cycle rule (a subscription anchored on Jan 31 renews on Feb 28/29).
 */
export function addMonths(epochSeconds: number, months: number): number {
  const d = new Date(epochSeconds * 1000);
  const day = d.getUTCDate();
  const target = new Date(d.getTime());
  target.setUTCDate(1);
  target.setUTCMonth(target.getUTCMonth() + months);
  const lastDay = new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0)).getUTCDate();
  target.setUTCDate(Math.min(day, lastDay));
  return Math.floor(target.getTime() / 1000);
}

/** The end of one billing period that starts at `start`. */
export function periodEnd(start: number, interval: Interval, count: number): number {
  switch (interval) {
    case 'day':
      return start + count * 86_400;
    case 'week':
      return start + count * 7 * 86_400;
    case 'month':
      return addMonths(start, count);
    case 'year':
      return addMonths(start, 12 * count);
  }
}
