import type { Kysely } from 'kysely';
import type { Clock } from '../core/clock.js';
import type { Container } from '../core/container.js';
import { ValidationError } from '../core/errors.js';
import { ClockKey } from '../core/keys.js';
import { hasControlCharacters } from '../core/text.js';
import { isUniqueViolation } from '../database/errors.js';
import { DbKey } from '../database/keys.js';
import { hashPassword, verifyPassword } from './password.js';
import type { NewUserInput, UserRecord, UsersProvider } from './users-provider.js';

export interface TableUsersOptions {
  /** Default `users`, created by Tollgate's migration; any other table is yours and never migrated by us. */
  table?: string;
  /** Your column names, where they differ: `{ id: 'account_id', email: 'mail', password: 'pass_hash' }`. */
  columns?: { id?: string; name?: string; email?: string; password?: string };
  /** Your password hashing (bcrypt, scrypt, …); default argon2id. */
  hashPassword?: (password: string) => Promise<string>;
  verifyPassword?: (hash: string, password: string) => Promise<boolean>;
}

/** The users provider over a database table: `authProvider({ users: tableUsers({ table: 'accounts', … }) })`. */
export function tableUsers(options: TableUsersOptions = {}): (container: Container) => UsersProvider {
  return (container) => new TableUsers(container.make(DbKey), container.make(ClockKey), options);
}

export const DEFAULT_USERS_TABLE = 'users';

/** Where a users provider's rows live, when they are in a table of Tollgate's own database. */
export interface UsersTable {
  table: string;
  /** The id column. */
  id: string;
  /** A row of the table as the provider hands it over. */
  record(row: Record<string, unknown>): UserRecord;
}

/** The table behind `provider` when it is `tableUsers()`'s, so a session's read can join it. */
export function usersTableOf(provider: UsersProvider): UsersTable | undefined {
  return provider instanceof TableUsers ? provider.source : undefined;
}

class TableUsers implements UsersProvider {
  readonly #db: Kysely<any>;
  readonly #table: string;
  readonly #col: Required<NonNullable<TableUsersOptions['columns']>>;
  readonly #hash: (password: string) => Promise<string>;
  readonly #verify: (hash: string, password: string) => Promise<boolean>;

  constructor(
    db: Kysely<any>,
    private readonly clock: Clock,
    options: TableUsersOptions,
  ) {
    this.#db = db;
    this.#table = options.table ?? DEFAULT_USERS_TABLE;
    this.#col = { id: 'id', name: 'name', email: 'email', password: 'password', ...options.columns };
    this.#hash = options.hashPassword ?? hashPassword;
    this.#verify = options.verifyPassword ?? verifyPassword;
  }

  get source(): UsersTable {
    return { table: this.#table, id: this.#col.id, record: (row) => this.#record(row) };
  }

  async findById(id: number): Promise<UserRecord | undefined> {
    return this.#first(this.#col.id, id);
  }

  findByCredentials(identifier: string): Promise<UserRecord | undefined> {
    // No e-mail address holds a control character; PostgreSQL would refuse a NUL in the query.
    if (hasControlCharacters(identifier)) return Promise.resolve(undefined);
    return this.#first(this.#col.email, identifier.trim().toLowerCase());
  }

  verifyPassword(user: UserRecord, password: string): Promise<boolean> {
    return typeof user.password === 'string' ? this.#verify(user.password, password) : Promise.resolve(false);
  }

  async create(input: NewUserInput): Promise<UserRecord> {
    const now = this.clock.now().toISOString();
    const c = this.#col;
    const values: Record<string, unknown> = {
      [c.name]: input.name.trim(),
      [c.email]: input.email.trim().toLowerCase(),
      [c.password]: await this.#hash(input.password),
    };
    if (this.#table === DEFAULT_USERS_TABLE) Object.assign(values, { created_at: now, updated_at: now });
    try {
      const row = await this.#db
        .insertInto(this.#table)
        .values(values)
        .returningAll()
        .executeTakeFirstOrThrow();
      return this.#record(row);
    } catch (error) {
      if (isUniqueViolation(error))
        throw new ValidationError({ email: ['The email has already been taken.'] });
      throw error;
    }
  }

  async update(id: number, values: Record<string, unknown>): Promise<void> {
    const row =
      this.#table === DEFAULT_USERS_TABLE
        ? { ...values, updated_at: this.clock.now().toISOString() }
        : values;
    await this.#db.updateTable(this.#table).set(row).where(this.#col.id, '=', id).execute();
  }

  async delete(id: number): Promise<boolean> {
    const result = await this.#db.deleteFrom(this.#table).where(this.#col.id, '=', id).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  async #first(column: string, value: unknown): Promise<UserRecord | undefined> {
    const row = await this.#db
      .selectFrom(this.#table)
      .selectAll()
      .where(column, '=', value)
      .executeTakeFirst();
    return row ? this.#record(row) : undefined;
  }

  /** Your columns under the names the user model uses; everything else as it is. */
  #record(row: Record<string, unknown>): UserRecord {
    const c = this.#col;
    const { [c.id]: id, [c.name]: name, [c.email]: email, [c.password]: password, ...rest } = row;
    return {
      ...rest,
      id: Number(id),
      name: String(name ?? ''),
      email: String(email),
      password: password as string,
    };
  }
}
