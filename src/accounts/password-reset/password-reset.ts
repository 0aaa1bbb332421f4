import type { Kysely } from 'kysely';
import { hashPassword } from '../../auth/password.js';
import type { SessionStore } from '../../auth/session-store.js';
import type { User } from '../../auth/user.js';
import type { Users } from '../../auth/users.js';
import type { Clock } from '../../core/clock.js';
import type { EventDispatcher } from '../../core/events.js';
import type { Logger } from '../../core/logger.js';
import type { Database } from '../../database/types.js';
import type { Mailer } from '../../mail/mailer.js';
import { type AccountTokens, hash, type RedeemFailure } from '../account-tokens.js';
import type { AccountsConfig } from '../config.js';
import { PasswordChanged, type RequestOrigin } from '../events.js';
import { resetPasswordMail } from './reset-password-mail.js';

export type ResetOutcome = { ok: true; user: User } | { ok: false; reason: RedeemFailure };

export interface PasswordResetDeps {
  db: Kysely<Database>;
  users: Users;
  tokens: AccountTokens;
  mailer: Mailer;
  sessions: SessionStore;
  clock: Clock;
  logger: Logger;
  /** Raises `PasswordChanged` after a reset. */
  events: EventDispatcher;
  config: AccountsConfig['passwordReset'];
  /** Revokes every token of every application the user authorized (undefined without oauth). */
  revokeApplications?: (userId: number) => Promise<void>;
}

/** The reset link depends on the password it replaces: any change of the password ends it. */
const fingerprintOf = (user: User) => hash(`reset-password:${user.password}`);

/** Password reset: `request → deliver → redeem`, each a step of its own. */
export class PasswordReset {
  constructor(private readonly deps: PasswordResetDeps) {}

  /** A link for the account with this address, or undefined when there is none (`tollgate user:reset-link`). */
  async link(email: string): Promise<{ user: User; link: string } | undefined> {
    const user = await this.deps.users.findByEmail(email);
    return user && { user, link: await this.issue(user) };
  }

  /**
   * Queues a reset mail when the address has an account, nothing otherwise. The link and the mail
   * are committed together before this resolves, so an answer sent after it loses nothing on a
   * crash. The worker delivers it at its next poll (`mail.worker.pollMs`), not at once: sending in
   * this process right after the answer would make an address with an account slower to answer.
   */
  async deliver(email: string): Promise<void> {
    const { users, db, mailer, config } = this.deps;
    const user = await users.findByEmail(email);
    if (!user) return;
    await db.transaction().execute(async (trx) => {
      const link = await this.issue(user, trx);
      const data = { name: user.name, link, expiresMinutes: config.expiresMinutes };
      await mailer.send(resetPasswordMail, user.email, data, { db: trx });
    });
  }

  private async issue(user: User, db?: Kysely<Database>): Promise<string> {
    const { tokens, mailer, clock, config } = this.deps;
    const at = clock.now();
    const fingerprint = fingerprintOf(user);
    const token = await tokens.issue(
      user.id,
      'reset-password',
      user.email,
      at,
      config.expiresMinutes,
      fingerprint,
      db,
    );
    return mailer.context.url(`/reset-password?token=${token}`);
  }

  /**
   * Sets the new password if the link still works (once, before it expires, while the password
   * and the address are those it was issued for), then ends every session of the user and, by
   * default, the tokens of the applications they authorized; then raises `PasswordChanged`.
   */
  async redeem(token: string, password: string, origin: RequestOrigin = {}): Promise<ResetOutcome> {
    const { users, tokens, sessions, clock, config, revokeApplications, events } = this.deps;
    let user: User | undefined;
    const redeemed = await tokens.redeem('reset-password', token, clock.now(), async (row) => {
      user = await users.find(row.user_id);
      const current = user && user.email === row.email && fingerprintOf(user) === row.fingerprint;
      return current ? undefined : 'invalid';
    });
    if (!redeemed.ok || !user) return redeemed.ok ? { ok: false, reason: 'invalid' } : redeemed;
    await users.update(user, { password: await hashPassword(password) });
    await tokens.revoke(user.id, 'reset-password', clock.now());
    await sessions.destroyForUser(user.id);
    if (config.revokeRefreshTokens) await revokeApplications?.(user.id);
    await events.dispatch(new PasswordChanged(user, 'reset', origin, clock.now()));
    return { ok: true, user };
  }
}
