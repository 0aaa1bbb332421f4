import type { Kysely } from 'kysely';
import type { SessionStore } from '../../auth/session-store.js';
import type { User } from '../../auth/user.js';
import type { UserDeletionGuards } from '../../auth/user-deletion-guards.js';
import type { Users } from '../../auth/users.js';
import type { Clock } from '../../core/clock.js';
import type { EventDispatcher } from '../../core/events.js';
import type { Database } from '../../database/types.js';
import { AccountDeleted, type RequestOrigin } from '../events.js';

/** Where the deleted account's invoices stay: the gateway and its customer id. */
export interface BillingCustomer {
  gateway: string;
  customerId: string;
}

export interface AccountDeletionDeps {
  db: Kysely<Database>;
  users: Users;
  sessions: SessionStore;
  events: EventDispatcher;
  clock: Clock;
  /** What the modules beside accounts check or settle first (organizations: the last owner); may refuse. */
  guards: UserDeletionGuards;
  /** Billing, when registered: the user's customer, and cancelling every subscription at the provider now. */
  billing?: {
    customerOf(user: User): BillingCustomer | undefined;
    cancelSubscriptionsNow(userId: number): Promise<unknown>;
  };
  /** OAuth, when registered: revokes the clients, tokens and API keys the user owns; forgets them once the user is gone. */
  credentials?: {
    revokeAll(userId: number): Promise<unknown>;
    forget(userId: number): Promise<unknown>;
  };
}

/**
 * Deletes an account, in an order that loses nothing if it stops half-way and is run again: the
 * guards first (they may refuse with `UserDeletionRefused`, before anything is ended), then
 * subscriptions cancelled at the provider (nobody is charged for an account that is gone), then
 * every credential revoked and announced, then the row deleted — its sessions, tokens and links
 * cascade with it — keeping the billing customer id its invoices are filed under. Two deletions at
 * once both find the subscriptions and credentials already ended by the other, and only the one
 * whose delete removed the row raises `AccountDeleted` (which mails the goodbye).
 */
export class AccountDeletion {
  constructor(private readonly deps: AccountDeletionDeps) {}

  /** True when this call deleted the account; false when another had already. */
  async delete(user: User, origin: RequestOrigin): Promise<boolean> {
    const { db, users, sessions, events, clock, guards, billing, credentials } = this.deps;
    await guards.check(user.id);
    await billing?.cancelSubscriptionsNow(user.id);
    await credentials?.revokeAll(user.id);
    const customer = billing?.customerOf(user);
    const at = clock.now();
    await db
      .insertInto('account_deletions')
      .values({
        user_id: user.id,
        billing_gateway: customer?.gateway ?? null,
        billing_customer_id: customer?.customerId ?? null,
        deleted_at: at.toISOString(),
      })
      .onConflict((oc) => oc.column('user_id').doNothing())
      .execute();
    // Ended before the row goes (its foreign key would delete them unannounced), so the clients
    // the user signed in to hear of it (OpenID back-channel logout); a users provider of the
    // application's own has no foreign keys to cascade either.
    await sessions.destroyForUser(user.id);
    const deleted = await users.delete(user);
    await credentials?.forget(user.id);
    if (deleted) await events.dispatch(new AccountDeleted(user.id, user.email, user.name, origin, at));
    return deleted;
  }
}
