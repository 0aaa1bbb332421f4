import { hashPassword, verifyPassword } from '../../auth/password.js';
import type { Session } from '../../auth/session.js';
import type { SessionStore } from '../../auth/session-store.js';
import type { User } from '../../auth/user.js';
import type { Users } from '../../auth/users.js';
import type { Clock } from '../../core/clock.js';
import type { EventDispatcher } from '../../core/events.js';
import { OtherSessionsEnded, PasswordChanged, type RequestOrigin } from '../events.js';

/**
 * The account page's security actions: change the password (the current one required), end the
 * other sessions. Each raises its account event once the change is stored.
 */
export class AccountSecurity {
  constructor(
    private readonly users: Users,
    private readonly sessions: SessionStore,
    private readonly events: EventDispatcher,
    private readonly clock: Clock,
  ) {}

  /** Whether `password` is the user's current password (argon2, constant work either way). */
  confirms(user: User, password: string): Promise<boolean> {
    return verifyPassword(user.password, password);
  }

  /**
   * Sets a new password and ends every other session of the user; the current one gets a new id.
   * Reset links issued before die with the old password (they carry its digest).
   */
  async changePassword(user: User, password: string, current: Session, origin: RequestOrigin): Promise<void> {
    await this.users.update(user, { password: await hashPassword(password) });
    await this.sessions.destroyOthers(user.id, current);
    current.regenerate();
    await this.events.dispatch(new PasswordChanged(user, 'account', origin, this.clock.now()));
  }

  /** "Sign out other sessions": every session of the user but this one. */
  async endOtherSessions(user: User, current: Session, origin: RequestOrigin): Promise<number> {
    const ended = await this.sessions.destroyOthers(user.id, current);
    await this.events.dispatch(new OtherSessionsEnded(user, ended, origin, this.clock.now()));
    return ended;
  }
}
