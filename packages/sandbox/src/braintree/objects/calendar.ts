/** Braintree bills on calendar dates (YYYY-MM-DD, here in UTC), not instants. */
const DAY_MS = 86_400_000;

export function isoDate(at: Date): string {
  return at.toISOString().slice(0, 10);
}

function parse(date: string): Date {
  return new Date(`${date}T00:00:00.000Z`);
}

export function addDays(date: string, days: number): string {
  return isoDate(new Date(parse(date).getTime() + days * DAY_MS));
}

export function daysBetween(from: string, to: string): number {
  return Math.round((parse(to).getTime() - parse(from).getTime()) / DAY_MS);
}

/**
 * Adds months keeping the billing day of month; a day past the month's end bills on its last day,
 * as Braintree does for billing days 29–31.
 */
export function addMonths(date: string, months: number, billingDay: number): string {
  const d = parse(date);
  const first = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + months, 1));
  const lastDay = new Date(Date.UTC(first.getUTCFullYear(), first.getUTCMonth() + 1, 0)).getUTCDate();
  first.setUTCDate(Math.min(billingDay, lastDay));
  return isoDate(first);
}

export function dayOfMonth(date: string): number {
  return parse(date).getUTCDate();
}

/** The instant to stamp on a charge made for `date`: that day at the current time of day, never after now. */
export function stampFor(date: string, now: Date): string {
  const stamped = new Date(parse(date).getTime() + (now.getTime() % DAY_MS));
  return (stamped > now ? now : stamped).toISOString();
}
