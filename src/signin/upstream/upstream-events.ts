import type { RequestOrigin } from '../../accounts/index.js';
import type { User } from '../../auth/index.js';

/**
 * An upstream provider's identity was linked to the user: at sign-up through it (`sign-up`), at a
 * sign-in that the user confirmed with their password (`sign-in`), or from the account page (`account`).
 */
export class UpstreamLinked {
  constructor(
    readonly user: User,
    readonly provider: string,
    readonly via: 'sign-up' | 'sign-in' | 'account',
    readonly origin: RequestOrigin,
    readonly at: Date,
  ) {}
}

/** The user removed the link to an upstream provider on the account page. */
export class UpstreamUnlinked {
  constructor(
    readonly user: User,
    readonly provider: string,
    readonly origin: RequestOrigin,
    readonly at: Date,
  ) {}
}
