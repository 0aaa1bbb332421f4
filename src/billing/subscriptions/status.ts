/**
 * The subscription status rules of the spec ("Subscription and trial status"), once, as pure
 * functions of a subscription record and the current time. Everything else calls these.
 */
export interface StatusRecord {
  trial_ends_at: string | null;
  ends_at: string | null;
}

function isFuture(iso: string | null, now: Date): boolean {
  return iso !== null && new Date(iso).getTime() > now.getTime();
}

/** In trial while the current date is not past the trial end. */
export function onTrial(record: StatusRecord, now: Date): boolean {
  return isFuture(record.trial_ends_at, now);
}

/** Cancelled once `ends_at` is set (whether or not the grace period still runs). */
export function cancelled(record: StatusRecord): boolean {
  return record.ends_at !== null;
}

/** Cancelled, but `ends_at` not yet reached: still counts as subscribed. */
export function onGracePeriod(record: StatusRecord, now: Date): boolean {
  return isFuture(record.ends_at, now);
}

/** Not cancelled, or cancelled and still within the grace period. */
export function active(record: StatusRecord, now: Date): boolean {
  return record.ends_at === null || onGracePeriod(record, now);
}

/** Cancelled and past `ends_at`. */
export function ended(record: StatusRecord, now: Date): boolean {
  return cancelled(record) && !onGracePeriod(record, now);
}

/** What `subscribed()` means: active, in trial, or in the grace period. */
export function valid(record: StatusRecord, now: Date): boolean {
  return active(record, now) || onTrial(record, now) || onGracePeriod(record, now);
}

/** A generic trial is a `trial_ends_at` on the user record, with no subscription attached. */
export function onGenericTrial(user: { trial_ends_at: string | null }, now: Date): boolean {
  return isFuture(user.trial_ends_at, now);
}
