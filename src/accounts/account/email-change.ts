import type { User } from '../../auth/user.js';
import type { Users } from '../../auth/users.js';
import type { Clock } from '../../core/clock.js';
import type { EventDispatcher } from '../../core/events.js';
import type { Mailer } from '../../mail/mailer.js';
import { type AccountTokens, hash, type RedeemFailure } from '../account-tokens.js';
import { EmailChanged, type RequestOrigin } from '../events.js';
import { changeEmailMail } from './change-email-mail.js';

export type ChangeFailure = RedeemFailure | 'taken';
export type ChangeOutcome = { ok: true; user: User } | { ok: false; reason: ChangeFailure };

/** A link is for the address the account had when it was asked for: a change since ends it. */
const fingerprintOf = (user: User) => hash(`change-email:${user.email}`);

/**
 * Changing the address: a link mailed to the new one; confirming it makes the change (and
 * verifies the address). Of two changes asked for at once, the first confirmed wins: the other's
 * link was for the old address.
 */
export class EmailChange {
  constructor(
    private readonly users: Users,
    private readonly tokens: AccountTokens,
    private readonly mailer: Mailer,
    private readonly events: EventDispatcher,
    private readonly clock: Clock,
    private readonly expiresMinutes: number,
  ) {}

  /** Whether another account has this address already. */
  async taken(email: string): Promise<boolean> {
    return (await this.users.findByEmail(email)) !== undefined;
  }

  async request(user: User, email: string): Promise<void> {
    const now = this.clock.now();
    const token = await this.tokens.issue(
      user.id,
      'change-email',
      email,
      now,
      this.expiresMinutes,
      fingerprintOf(user),
    );
    const link = this.mailer.context.url(`/account/email/confirm?token=${token}`);
    await this.mailer.send(changeEmailMail, email, {
      name: user.name,
      link,
      expiresMinutes: this.expiresMinutes,
    });
  }

  /** Whether a link would work now, without using it up (the page its GET shows). */
  async check(token: string, signedIn: User | undefined): Promise<ChangeFailure | undefined> {
    const found = await this.tokens.check('change-email', token, this.clock.now());
    if (!found.ok) return found.reason;
    if (signedIn && signedIn.id !== found.token.user_id) return 'other-user';
    return undefined;
  }

  async confirm(token: string, signedIn: User | undefined, origin: RequestOrigin): Promise<ChangeOutcome> {
    const now = this.clock.now();
    let user: User | undefined;
    const redeemed = await this.tokens.redeem(
      'change-email',
      token,
      now,
      async (row) => {
        if (signedIn && signedIn.id !== row.user_id) return 'other-user';
        user = await this.users.find(row.user_id);
        return user && fingerprintOf(user) === row.fingerprint ? undefined : 'invalid';
      },
      { usesUpTheOthers: true },
    );
    if (!redeemed.ok || !user) return redeemed.ok ? { ok: false, reason: 'invalid' } : redeemed;
    const previous = user.email;
    const email = redeemed.token.email;
    if (await this.taken(email)) return { ok: false, reason: 'taken' };
    try {
      await this.users.update(user, { email, email_verified_at: now.toISOString() });
    } catch (err) {
      // Another account took the address between the check and the update (the unique index).
      if (await this.taken(email)) return { ok: false, reason: 'taken' };
      throw err;
    }
    await this.events.dispatch(new EmailChanged(user, previous, origin, now));
    return { ok: true, user };
  }
}
