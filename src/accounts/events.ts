import type { User } from '../auth/user.js';

/**
 * Where an account change came from, for the notice that tells the user about it ("from Firefox on
 * Linux at 203.0.113.7"). Empty when it did not come from a request (`tollgate` commands).
 */
export interface RequestOrigin {
  ip?: string;
  userAgent?: string;
}

/**
 * The account events: raised after the change is stored (committed), so a listener that mails the
 * user never tells of a change that was rolled back. The notifications listen to them; so may the
 * application (an audit log, a webhook).
 *
 * @example
 * app.events.listen(PasswordChanged, async ({ user, via }) => audit.record(user.id, `password ${via}`));
 */
export class PasswordChanged {
  constructor(
    /** The user, already holding the new password hash. */
    readonly user: User,
    /** `account`: on the account page, the current password given; `reset`: through a reset link. */
    readonly via: 'account' | 'reset',
    readonly origin: RequestOrigin,
    readonly at: Date,
  ) {}
}

/** The address of an account changed (confirmed at the new address); tell the old one. */
export class EmailChanged {
  constructor(
    /** The user, already holding the new address. */
    readonly user: User,
    readonly previousEmail: string,
    readonly origin: RequestOrigin,
    readonly at: Date,
  ) {}
}

/**
 * A user signed in from a device (browser) not seen for them before. Not raised for a user's first
 * sign-in: there is nothing yet to compare with.
 */
export class SignedInFromNewDevice {
  constructor(
    readonly user: User,
    readonly origin: RequestOrigin,
    readonly at: Date,
    /** How the user signed in (`amr`: `pwd`, `otp`). */
    readonly methods: readonly string[] = ['pwd'],
  ) {}
}

/** The user ended every session but the current one ("sign out other sessions"). */
export class OtherSessionsEnded {
  constructor(
    readonly user: User,
    /** How many sessions ended. */
    readonly ended: number,
    readonly origin: RequestOrigin,
    readonly at: Date,
  ) {}
}

/**
 * An account was deleted: its subscriptions cancelled, its tokens, keys and clients revoked, its row
 * gone. Carries what is left to say goodbye with; the user no longer exists.
 */
export class AccountDeleted {
  constructor(
    readonly userId: number,
    readonly email: string,
    readonly name: string,
    readonly origin: RequestOrigin,
    readonly at: Date,
  ) {}
}

/** The user turned on sign-in with an authenticator app (enrolment confirmed with a code). */
export class TwoFactorEnabled {
  constructor(
    readonly user: User,
    readonly origin: RequestOrigin,
    readonly at: Date,
  ) {}
}

/** The user turned the authenticator app off (after signing in again); their recovery codes are gone. */
export class TwoFactorDisabled {
  constructor(
    readonly user: User,
    readonly origin: RequestOrigin,
    readonly at: Date,
  ) {}
}

/** The user made new recovery codes; the old ones no longer work. */
export class RecoveryCodesRegenerated {
  constructor(
    readonly user: User,
    readonly origin: RequestOrigin,
    readonly at: Date,
  ) {}
}

/**
 * Too many wrong second-factor codes in a row after a right password: the second factor refuses
 * every code until `until`. Whoever typed them knows the password.
 */
export class TwoFactorLocked {
  constructor(
    readonly user: User,
    readonly until: Date,
    readonly origin: RequestOrigin,
    readonly at: Date,
  ) {}
}
