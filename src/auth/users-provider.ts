import type { Container } from '../core/container.js';
import { InjectionKey } from '../core/container.js';

/**
 * A user as the users provider hands it over: an integer `id`, a `name` and an `email`, the
 * password hash where there is one, and any other columns the application keeps (billing's
 * `stripe_id`, …). It is hydrated into the application's user model by `Users`.
 */
export interface UserRecord {
  id: number;
  name: string;
  email: string;
  password?: string;
  [column: string]: unknown;
}

export interface NewUserInput {
  name: string;
  email: string;
  password: string;
}

/**
 * Where users live. Tollgate reads users only through this interface: the session and token
 * guards (`findById`), the login page and the password grant (`findByCredentials`, then
 * `verifyPassword`). `create` serves the registration page and `tollgate user:create`; `update`
 * stores what modules keep on the user (billing's customer id and card).
 *
 * `tableUsers()` backs it with a table (Tollgate's `users` by default, or yours, with your column
 * names and password hashing); any object with these methods works too.
 */
export interface UsersProvider {
  findById(id: number): Promise<UserRecord | undefined>;
  /** The user that a login identifier (an e-mail address or a username) names, before any password check. */
  findByCredentials(identifier: string): Promise<UserRecord | undefined>;
  verifyPassword(user: UserRecord, password: string): Promise<boolean>;
  /** Creates a user; throw `ValidationError` for a taken e-mail. Without it, registration is refused. */
  create?(input: NewUserInput): Promise<UserRecord>;
  /** Stores changed attributes (already in the provider's own column names). */
  update?(id: number, values: Record<string, unknown>): Promise<void>;
  /** Deletes the user; false when there was none (any more). Without it, accounts cannot be deleted. */
  delete?(id: number): Promise<boolean>;
}

/** A users provider, or a function of the container that builds one at boot. */
export type UsersProviderInput = UsersProvider | ((container: Container) => UsersProvider);

export const UsersProviderKey = new InjectionKey<UsersProvider>('UsersProvider');
