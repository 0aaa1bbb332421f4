import type { Session } from './session.js';

/** The session key of the time the user logged in, in seconds since the epoch. */
export const AUTH_TIME = 'auth.time';

/**
 * The session key of how the user proved who they are at that login: OpenID Connect `amr` values
 * (RFC 8176), `pwd`, then `otp` when a second factor was given.
 */
export const AUTH_METHODS = 'auth.methods';

/**
 * The session key of a request for a new login (OpenID Connect `prompt=login`, `max_age`):
 * `asked` lets a signed-in user reach the login page; the next login turns it into `done`.
 */
export const LOG_IN_AGAIN = 'auth.log_in_again';

/** When the session's user logged in (seconds), or null for a session that did not record it. */
export function authTimeOf(session: Session | undefined): number | null {
  const at = session?.get<unknown>(AUTH_TIME);
  return typeof at === 'number' && Number.isFinite(at) ? at : null;
}

/** How the session's user signed in (`amr`); `['pwd']` for a session that did not record it. */
export function authMethodsOf(session: Session | undefined): string[] {
  const methods = session?.get<unknown>(AUTH_METHODS);
  return Array.isArray(methods) && methods.every((m) => typeof m === 'string') ? methods : ['pwd'];
}

/**
 * Records a login on the session: its time, the methods used, and the answer to a pending
 * `askToLogInAgain`.
 */
export function recordLogin(session: Session, at: Date, methods: readonly string[] = ['pwd']): void {
  session.put(AUTH_TIME, Math.floor(at.getTime() / 1000));
  session.put(AUTH_METHODS, [...methods]);
  if (session.get(LOG_IN_AGAIN) === 'asked') session.put(LOG_IN_AGAIN, 'done');
}

/** Asks the signed-in user to log in again: the login page (`guest`) lets them through. */
export function askToLogInAgain(session: Session): void {
  session.put(LOG_IN_AGAIN, 'asked');
}

/** Whether the user is on the way to logging in again (the `guest` middleware lets them pass). */
export function loggingInAgain(session: Session | undefined): boolean {
  return session?.get(LOG_IN_AGAIN) === 'asked';
}

/**
 * Whether the user logged in since `askToLogInAgain`. The answer is used once: it is forgotten
 * here, whatever it was, so an old login never passes for a new one.
 */
export function takeNewLogin(session: Session): boolean {
  const answered = session.get(LOG_IN_AGAIN) === 'done';
  if (answered) session.forget(LOG_IN_AGAIN);
  return answered;
}
