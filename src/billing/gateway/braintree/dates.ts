/** Braintree bills on calendar dates (`YYYY-MM-DD`); Tollgate stores instants. UTC throughout. */
const DAY_MS = 86_400_000;

export function isoDate(at: Date): string {
  return at.toISOString().slice(0, 10);
}

/** The start of that day: a date that ends a period as an instant (`ends_at`, trial end). */
export function startOf(date: string): Date {
  return new Date(`${date.slice(0, 10)}T00:00:00.000Z`);
}

export function daysBetween(from: string, to: string): number {
  return Math.round((startOf(to).getTime() - startOf(from).getTime()) / DAY_MS);
}

export function addDays(date: string, days: number): string {
  return isoDate(new Date(startOf(date).getTime() + days * DAY_MS));
}
