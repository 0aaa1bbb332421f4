import type { Kysely } from 'kysely';
import type { Clock } from '../core/clock.js';
import { Container, InjectionKey } from '../core/container.js';
import { ValidationError } from '../core/errors.js';
import { ClockKey } from '../core/keys.js';
import { DbKey } from '../database/keys.js';
import type { Database } from '../database/types.js';
import { hashPassword, verifyPassword } from './password.js';
import type { UserRow } from './tables.js';
import { User, type UserModel } from './user.js';

/** The application's user class (a subclass of `User` with its mixins). */
export const UserModelKey = new InjectionKey<UserModel>('UserModel');

export interface NewUserInput {
  name: string;
  email: string;
  password: string;
}

// A real hash of a random string: comparing against it costs the same as against a user's hash,
// so a login for an unknown e-mail takes as long as one with a wrong password.
let dummyHash: Promise<string> | undefined;

/** Finds, creates and authenticates users, hydrated into the application's user model. */
export class Users {
  static inject = [DbKey, ClockKey, Container] as const;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly clock: Clock,
    private readonly container: Container,
  ) {}

  private get model(): UserModel {
    return this.container.has(UserModelKey) ? this.container.make(UserModelKey) : User;
  }

  hydrate<T extends User = User>(row: UserRow): T {
    return new this.model(this.container, row) as T;
  }

  async find<T extends User = User>(id: number): Promise<T | undefined> {
    const row = await this.db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
    return row ? this.hydrate<T>(row) : undefined;
  }

  async findByEmail<T extends User = User>(email: string): Promise<T | undefined> {
    const row = await this.db
      .selectFrom('users')
      .selectAll()
      .where('email', '=', email.trim().toLowerCase())
      .executeTakeFirst();
    return row ? this.hydrate<T>(row) : undefined;
  }

  async create<T extends User = User>(input: NewUserInput): Promise<T> {
    const email = input.email.trim().toLowerCase();
    if (await this.findByEmail(email))
      throw new ValidationError({ email: ['The email has already been taken.'] });
    const now = this.clock.now().toISOString();
    const row = await this.db
      .insertInto('users')
      .values({
        name: input.name.trim(),
        email,
        password: await hashPassword(input.password),
        created_at: now,
        updated_at: now,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    return this.hydrate<T>(row);
  }

  /** The user whose e-mail and password match, or undefined. Constant work either way. */
  async attempt<T extends User = User>(email: string, password: string): Promise<T | undefined> {
    const user = await this.findByEmail<T>(email);
    if (!user) {
      dummyHash ??= hashPassword(crypto.randomUUID());
      await verifyPassword(await dummyHash, password);
      return undefined;
    }
    return (await verifyPassword(user.password, password)) ? user : undefined;
  }

  async update(user: User, values: Partial<Omit<UserRow, 'id' | 'created_at'>>): Promise<void> {
    const row = { ...values, updated_at: this.clock.now().toISOString() };
    await this.db.updateTable('users').set(row).where('id', '=', user.id).execute();
    user.fill(row);
  }
}
