/**
 * The subscription status rules of the spec ("Subscription and trial status"), once, as pure
 * functions of a subscription record and the current time. Everything else calls these.
 */
import { type StatusOptions, statusDeniesAccess } from './provider-status.js';

export interface StatusRecord {
  readonly trialEndsAt: string | null;
  readonly endsAt: string | null;
  /** The provider's status (`SubscriptionStatus`); absent, only the dates count. */
  readonly status?: string;
}

function isFuture(iso: string | null, now: Date): boolean {
  return iso !== null && new Date(iso).getTime() > now.getTime();
}

/** In trial while the current date is not past the trial end. */
export function onTrial(record: StatusRecord, now: Date): boolean {
  return isFuture(record.trialEndsAt, now);
}

/** Cancelled once `ends_at` is set (whether or not the grace period still runs). */
export function cancelled(record: StatusRecord): boolean {
  return record.endsAt !== null;
}

/** Cancelled, but `ends_at` not yet reached: still counts as subscribed. */
export function onGracePeriod(record: StatusRecord, now: Date): boolean {
  return isFuture(record.endsAt, now);
}

/** Not cancelled, or cancelled and still within the grace period. */
export function active(record: StatusRecord, now: Date): boolean {
  return record.endsAt === null || onGracePeriod(record, now);
}

/** Cancelled and past `ends_at`. */
export function ended(record: StatusRecord, now: Date): boolean {
  return cancelled(record) && !onGracePeriod(record, now);
}

/**
 * What `subscribed()` means: active, in trial, or in the grace period — unless the provider's status
 * rules access out (`incomplete`, `incomplete_expired`, `unpaid`, `paused`, and `past_due` when
 * `keepPastDueSubscribed` is off).
 */
export function valid(
  record: StatusRecord,
  now: Date,
  options: StatusOptions = { keepPastDueSubscribed: true },
): boolean {
  if (statusDeniesAccess(record.status, options)) return false;
  return active(record, now) || onTrial(record, now) || onGracePeriod(record, now);
}

/**
 * The provider ended the subscription (its last retry failed, it was deleted or expired): the
 * `ends_at` to store, or null to leave the record as it is. One not cancelled here ends now. One
 * already cancelled keeps its end: the grace period it was given is not cut short, since a provider
 * may end at once what was cancelled at period end (Braintree cancels a trial subscription at
 * once), and its notice may arrive after the local cancel.
 */
export function endedByProvider(record: StatusRecord, now: Date): string | null {
  return cancelled(record) ? null : now.toISOString();
}

/** A generic trial is a `trial_ends_at` on the user record, with no subscription attached. */
export function onGenericTrial(user: { trial_ends_at: string | null }, now: Date): boolean {
  return isFuture(user.trial_ends_at, now);
}

/**
 * Created, but its first payment waits for the customer (3-D Secure) or never came: a new
 * subscription with that name replaces it.
 */
export function awaitsFirstPayment(record: { readonly status?: string }): boolean {
  return record.status === 'incomplete' || record.status === 'incomplete_expired';
}
