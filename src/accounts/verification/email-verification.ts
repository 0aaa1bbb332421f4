import type { User } from '../../auth/user.js';
import type { Users } from '../../auth/users.js';
import type { Clock } from '../../core/clock.js';
import type { Mailer } from '../../mail/mailer.js';
import type { AccountTokens, RedeemFailure } from '../account-tokens.js';
import type { AccountsConfig } from '../config.js';
import { verifyEmailMail } from './verify-email-mail.js';

export type VerifyOutcome = { ok: true; user: User } | { ok: false; reason: RedeemFailure };

/** The verified-at column, as the user model carries it once the accounts migration ran. */
export function verifiedAt(user: User): string | null {
  return (user as User & { email_verified_at?: string | null }).email_verified_at ?? null;
}

/** E-mail verification: mail a link, redeem it, mark the address verified. */
export class EmailVerification {
  constructor(
    private readonly users: Users,
    private readonly tokens: AccountTokens,
    private readonly mailer: Mailer,
    private readonly clock: Clock,
    private readonly config: AccountsConfig['verification'],
  ) {}

  /** Mails a fresh link to the user's address. */
  async send(user: User): Promise<void> {
    const { expiresMinutes } = this.config;
    const token = await this.tokens.issue(
      user.id,
      'verify-email',
      user.email,
      this.clock.now(),
      expiresMinutes,
    );
    const link = this.mailer.context.url(`/email/verification?token=${token}`);
    await this.mailer.send(verifyEmailMail, user.email, { name: user.name, link, expiresMinutes });
  }

  /** Whether a link would work now, without using it up (the page a GET of the link shows). */
  async check(token: string, signedIn: User | undefined): Promise<RedeemFailure | undefined> {
    const found = await this.tokens.check('verify-email', token, this.clock.now());
    if (!found.ok) return found.reason;
    if (signedIn && signedIn.id !== found.token.user_id) return 'other-user';
    return undefined;
  }

  /**
   * Redeems a link. A link only works for the address it was sent to and, when someone is signed
   * in, only for that account (a link for another account is refused without being used up).
   */
  async verify(token: string, signedIn: User | undefined): Promise<VerifyOutcome> {
    const now = this.clock.now();
    const redeemed = await this.tokens.redeem('verify-email', token, now, (row) => {
      if (signedIn && signedIn.id !== row.user_id) return 'other-user';
      return undefined;
    });
    if (!redeemed.ok) return redeemed;
    const owner = await this.users.find(redeemed.token.user_id);
    if (!owner || owner.email !== redeemed.token.email) return { ok: false, reason: 'invalid' };
    if (!verifiedAt(owner)) await this.markVerified(owner);
    return { ok: true, user: owner };
  }

  async markVerified(user: User): Promise<void> {
    const now = this.clock.now();
    await this.users.update(user, { email_verified_at: now.toISOString() });
    await this.tokens.revoke(user.id, 'verify-email', now);
  }
}
