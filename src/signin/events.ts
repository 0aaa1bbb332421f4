import type { RequestOrigin } from '../accounts/index.js';
import type { User } from '../auth/index.js';

/** The user added a way to sign in (a passkey, a linked account). */
export class SignInMethodAdded {
  constructor(
    readonly user: User,
    /** `passkey`, `upstream`, … */
    readonly method: string,
    /** What the user sees it as: the passkey's name, the provider's. */
    readonly label: string,
    readonly origin: RequestOrigin,
    readonly at: Date,
  ) {}
}

/** The user removed one of their ways to sign in. */
export class SignInMethodRemoved {
  constructor(
    readonly user: User,
    readonly method: string,
    readonly label: string,
    readonly origin: RequestOrigin,
    readonly at: Date,
  ) {}
}

/** The user renamed one of their passkeys. */
export class PasskeyRenamed {
  constructor(
    readonly user: User,
    readonly from: string,
    readonly to: string,
    readonly origin: RequestOrigin,
    readonly at: Date,
  ) {}
}

/** A passkey assertion was refused (reused or expired challenge, another origin, counter gone back, unknown passkey). */
export class PasskeyRefused {
  constructor(
    readonly userId: number | null,
    readonly reason: string,
    readonly origin: RequestOrigin,
    readonly at: Date,
  ) {}
}
