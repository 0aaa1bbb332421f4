import type { Kysely, Transaction } from 'kysely';
import { sql } from 'kysely';
import { HttpError } from '../core/errors.js';
import { isPostgres } from '../database/schema.js';

/** Removing a sign-in method was refused: it is the user's last one (422). */
export class LastSignInMethod extends HttpError {
  constructor() {
    super(
      422,
      'This is your only way to sign in: add another one (a password, a passkey) before removing it.',
    );
    this.name = 'LastSignInMethod';
  }
}

/** A kind of sign-in method kept in the database (passkeys, linked upstream accounts). */
export interface SignInMethod {
  /** `passkey`, `upstream`, … */
  kind: string;
  /** How many the user has, read inside the removal's transaction (`db` is that transaction). */
  count(db: Kysely<any>, userId: number): Promise<number>;
}

/**
 * The rule "a user keeps at least one way to sign in". Each method the sign-in module offers
 * registers how to count a user's; the password counts when the user has one (a user created
 * through an upstream provider or a passkey may have none: an empty password). A removal runs
 * through `remove`, which counts and removes in one transaction that first takes a per-user
 * lock (PostgreSQL: an advisory lock; SQLite serialises writers anyway), so two removals at once
 * cannot both see "another one is left" and leave none.
 */
export class SignInMethods {
  readonly #methods: SignInMethod[] = [];

  constructor(
    private readonly db: Kysely<any>,
    /** Whether the user has a password; asked before the transaction (no sign-in method removes one). */
    private readonly hasPassword: (userId: number) => Promise<boolean>,
  ) {}

  add(method: SignInMethod): this {
    this.#methods.push(method);
    return this;
  }

  /** How many ways to sign in the user has, the password included. */
  async count(userId: number): Promise<number> {
    const password = (await this.hasPassword(userId)) ? 1 : 0;
    return password + (await this.#countStored(this.db, userId));
  }

  /**
   * Runs `work` (which removes one of the user's methods, in `trx`) unless it would leave the user
   * none: then `LastSignInMethod`, and nothing changes. `work` answers false when there was nothing
   * to remove (then nothing is refused either).
   */
  async remove(userId: number, work: (trx: Transaction<any>) => Promise<boolean>): Promise<boolean> {
    const password = (await this.hasPassword(userId)) ? 1 : 0;
    return this.db.transaction().execute(async (trx) => {
      if (isPostgres(trx)) await sql`select pg_advisory_xact_lock(${LOCK_SPACE}, ${userId})`.execute(trx);
      const before = password + (await this.#countStored(trx, userId));
      const removed = await work(trx);
      if (removed && before <= 1) throw new LastSignInMethod();
      return removed;
    });
  }

  async #countStored(db: Kysely<any>, userId: number): Promise<number> {
    let total = 0;
    for (const method of this.#methods) total += await method.count(db, userId);
    return total;
  }
}

/** The first key of the two-key advisory lock: the sign-in methods' own space. */
const LOCK_SPACE = 0x5167;
