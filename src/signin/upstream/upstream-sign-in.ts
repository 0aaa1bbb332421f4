import { randomBytes } from 'node:crypto';
import { setTimeout as delay } from 'node:timers/promises';
import { EmailVerification, type RequestOrigin } from '../../accounts/index.js';
import { Registered, type User, Users } from '../../auth/index.js';
import type { Clock } from '../../core/clock.js';
import { Container } from '../../core/container.js';
import { ValidationError } from '../../core/errors.js';
import { EventDispatcher } from '../../core/events.js';
import { ClockKey } from '../../core/keys.js';
import { LastSignInMethod, SignInMethods } from '../sign-in-methods.js';
import { LinkedIdentities } from './linked-identities.js';
import type { UpstreamIdentity } from './upstream-client.js';
import { UpstreamLinked, UpstreamUnlinked } from './upstream-events.js';

/** What an upstream identity means here. */
export type UpstreamOutcome =
  | { kind: 'user'; user: User }
  /** The address has an account and the provider vouches for it: its owner may link by password. */
  | { kind: 'confirm'; user: User }
  /** The address has an account, but the provider does not say it verified the address. */
  | { kind: 'unverified-match' }
  /** No account: one can be made (the provider verified the address). */
  | { kind: 'new' }
  /** No account, and no verified address to make one with. */
  | { kind: 'no-verified-email' };

/** Sign-in, sign-up and linking through upstream providers, over the stored links. */
export class UpstreamSignIn {
  static inject = [Users, LinkedIdentities, SignInMethods, EventDispatcher, ClockKey, Container] as const;

  constructor(
    private readonly users: Users,
    private readonly identities: LinkedIdentities,
    private readonly methods: SignInMethods,
    private readonly events: EventDispatcher,
    private readonly clock: Clock,
    private readonly container: Container,
  ) {}

  /**
   * The linked user; else, by e-mail address, an account to link — only when the provider verified
   * the address (an unverified one could be anybody's) and only once its owner confirms.
   */
  async resolve(provider: string, identity: UpstreamIdentity): Promise<UpstreamOutcome> {
    const linkedId = await this.identities.userFor(provider, identity.subject);
    const linked = linkedId === undefined ? undefined : await this.users.find(linkedId);
    if (linked) {
      await this.identities.used(provider, identity.subject, this.clock.now());
      return { kind: 'user', user: linked };
    }
    const owner = identity.email ? await this.users.findByEmail(identity.email) : undefined;
    if (owner)
      return identity.emailVerified ? { kind: 'confirm', user: owner } : { kind: 'unverified-match' };
    return identity.email && identity.emailVerified ? { kind: 'new' } : { kind: 'no-verified-email' };
  }

  /**
   * A new account for the identity: a verified address, no password (empty: none matches it, and
   * it is not counted as a sign-in method until the user sets one with a reset link), and the link.
   * Undefined when another sign-up took the address first (two callbacks at once): the caller
   * resolves the identity again and finds what that one made.
   */
  async signUp(
    provider: string,
    identity: UpstreamIdentity,
    origin: RequestOrigin,
  ): Promise<User | undefined> {
    const email = identity.email!;
    let user: User;
    try {
      user = await this.users.create({
        name: identity.name ?? email.split('@')[0]!,
        email,
        password: randomBytes(32).toString('base64url'),
      });
    } catch (error) {
      // The users table's unique address decides between two sign-ups at once.
      if (!(error instanceof ValidationError)) throw error;
      await this.linkedMeanwhile(identity);
      return undefined;
    }
    // Linked at once, so a sign-up that lost the race finds the link soon after the account.
    const now = this.clock.now();
    const linked = await this.identities.link(user.id, provider, identity, now);
    await this.users.update(user, { password: '' });
    if (this.container.has(EmailVerification))
      await this.container.make(EmailVerification).markVerified(user);
    await this.events.dispatch(new Registered(user));
    if (linked) await this.events.dispatch(new UpstreamLinked(user, provider, 'sign-up', origin, now));
    return user;
  }

  /**
   * Waits, briefly, for the sign-up that took the address to link its identity: a second callback
   * of the same person then signs in to the account the first made. Gives up at once when the
   * account has a link already (another identity's, or this one), or after about a second (an
   * account made with a password: then the owner confirms the link, as usual).
   */
  private async linkedMeanwhile(identity: UpstreamIdentity): Promise<void> {
    for (let tries = 0; tries < 40; tries++) {
      const owner = await this.users.findByEmail(identity.email!);
      if (!owner || (await this.identities.forUser(owner.id)).length > 0) return;
      await delay(25);
    }
  }

  /** Links the identity to the user; false when it is linked already (to them or anybody). */
  async link(
    user: User,
    provider: string,
    identity: UpstreamIdentity,
    via: UpstreamLinked['via'],
    origin: RequestOrigin,
  ): Promise<boolean> {
    const now = this.clock.now();
    if (!(await this.identities.link(user.id, provider, identity, now))) return false;
    await this.events.dispatch(new UpstreamLinked(user, provider, via, origin, now));
    return true;
  }

  /** Removes the link unless it is the user's last way to sign in. */
  async unlink(user: User, provider: string, origin: RequestOrigin): Promise<'removed' | 'missing' | 'last'> {
    try {
      const removed = await this.methods.remove(user.id, (trx) =>
        this.identities.unlink(trx, user.id, provider),
      );
      if (!removed) return 'missing';
    } catch (error) {
      if (error instanceof LastSignInMethod) return 'last';
      throw error;
    }
    await this.events.dispatch(new UpstreamUnlinked(user, provider, origin, this.clock.now()));
    return 'removed';
  }
}
