import { Container, InjectionKey } from '../core/container.js';
import { ConfigurationError } from '../core/errors.js';
import { hashPassword, verifyPassword } from './password.js';
import { tableUsers } from './table-users.js';
import { User, type UserModel } from './user.js';
import {
  type NewUserInput,
  type UserRecord,
  type UsersProvider,
  type UsersProviderInput,
  UsersProviderKey,
} from './users-provider.js';

/** The application's user class (a subclass of `User` with its mixins). */
export const UserModelKey = new InjectionKey<UserModel>('UserModel');

export type { NewUserInput };

// A real hash of a random string: comparing against it costs the same as against a user's hash,
// so a login for an unknown e-mail takes as long as one with a wrong password.
let dummyHash: Promise<string> | undefined;

/** Finds, creates and authenticates users through the users provider, hydrated into the user model. */
export class Users {
  static inject = [UsersProviderKey, Container] as const;

  constructor(
    private readonly provider: UsersProvider,
    private readonly container: Container,
  ) {}

  private get model(): UserModel {
    return this.container.has(UserModelKey) ? this.container.make(UserModelKey) : User;
  }

  hydrate<T extends User = User>(record: UserRecord): T {
    return new this.model(this.container, record as never) as T;
  }

  async find<T extends User = User>(id: number): Promise<T | undefined> {
    const record = await this.provider.findById(id);
    return record ? this.hydrate<T>(record) : undefined;
  }

  async findByEmail<T extends User = User>(email: string): Promise<T | undefined> {
    const record = await this.provider.findByCredentials(email);
    return record ? this.hydrate<T>(record) : undefined;
  }

  /** Creates a user; a taken e-mail is a `ValidationError`, also when two registrations race. */
  async create<T extends User = User>(input: NewUserInput): Promise<T> {
    if (!this.provider.create) throw new ConfigurationError('The users provider cannot create users.');
    return this.hydrate<T>(await this.provider.create(input));
  }

  /**
   * The user whose e-mail and password match, or undefined. Constant work either way: an unknown
   * address, or an account without a password (made through an upstream provider), costs one
   * argon2 verify against a dummy hash, as a wrong password does — a fast answer would tell
   * that the address has no account, or an account without a password.
   */
  async attempt<T extends User = User>(email: string, password: string): Promise<T | undefined> {
    const record = await this.provider.findByCredentials(email);
    if (!record || typeof record.password !== 'string' || record.password === '') {
      dummyHash ??= hashPassword(crypto.randomUUID());
      await verifyPassword(await dummyHash, password);
      return undefined;
    }
    return (await this.provider.verifyPassword(record, password)) ? this.hydrate<T>(record) : undefined;
  }

  async update(user: User, values: Record<string, unknown>): Promise<void> {
    if (!this.provider.update) throw new ConfigurationError('The users provider cannot update users.');
    await this.provider.update(user.id, values);
    user.fill(values);
  }

  /**
   * Deletes the user's record; false when it was gone already (of two deletions at once, one wins).
   * The rows keyed to it in Tollgate's own tables go with it (their foreign keys cascade).
   */
  async delete(user: User): Promise<boolean> {
    if (!this.provider.delete) throw new ConfigurationError('The users provider cannot delete users.');
    return this.provider.delete(user.id);
  }
}

/**
 * Binds the users provider (the one given, else the default `users` table) and the `Users` service,
 * unless already bound: the auth and OAuth modules both call it.
 */
export function bindUsers(container: Container, provider?: UsersProviderInput): void {
  if (provider || !container.has(UsersProviderKey)) {
    container.singleton(
      UsersProviderKey,
      typeof provider === 'function' ? provider : () => provider ?? tableUsers()(container),
    );
  }
  if (!container.has(Users)) container.singleton(Users);
}
