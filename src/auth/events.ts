import type { Session } from './session.js';
import type { User } from './user.js';

/** A new account was created (the registration page, a JSON sign-up, `tollgate user:create`). */
export class Registered {
  constructor(readonly user: User) {}
}

/**
 * A sign-up gave an address that already has an account. The visitor is told what a new address
 * is told (no enumeration); a module that sends mail may tell the address's owner.
 */
export class RegistrationWithTakenEmail {
  constructor(readonly email: string) {}
}

/**
 * The user signed out with the logout form (`POST /logout`). `session` is the login session just
 * before it ends: what other modules kept in it (an OpenID `sid`) is still there.
 */
export class LoggedOut {
  constructor(
    readonly userId: number,
    readonly session: Session,
  ) {}
}

/**
 * Sessions of a user were ended for them, not by their own logout: a password change or reset,
 * "sign out other sessions", the account's deletion. `ended` holds what each ended session kept
 * (its data as stored), so a module that put something there (an OpenID `sid`) can act on it.
 */
export class SessionsEnded {
  constructor(
    readonly userId: number,
    readonly ended: ReadonlyArray<Readonly<Record<string, unknown>>>,
  ) {}
}

/**
 * A user signed in on the login page (the password, and the second factor when they have one).
 * Raised after the session is theirs; carries the client's address and browser for whoever keeps
 * track of devices, and how the user proved who they are.
 */
export class SignedIn {
  constructor(
    readonly user: User,
    /** The client's address (`clientIp()`: behind trusted proxies, the one they name); undefined in process. */
    readonly ip: string | undefined,
    readonly userAgent: string | undefined,
    readonly at: Date,
    /** OpenID Connect `amr` values: `pwd`, then `otp` for a code from the app or a recovery code. */
    readonly methods: readonly string[] = ['pwd'],
  ) {}
}

/**
 * A sign-in on the login page was refused: the credentials did not match (`credentials`) or too
 * many attempts came first (`throttled`). Carries the address typed, never the password.
 */
export class SignInFailed {
  constructor(
    readonly email: string,
    readonly reason: 'credentials' | 'throttled',
    readonly ip: string | undefined,
    readonly userAgent: string | undefined,
    readonly at: Date,
  ) {}
}
