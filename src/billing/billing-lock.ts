import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import { setTimeout as wait } from 'node:timers/promises';
import type { Kysely } from 'kysely';
import { DbKey } from '../database/keys.js';
import type { Database } from '../database/types.js';
import { BillingError } from './errors.js';

/** How long a holder keeps the lock if it dies without releasing it (longer than any provider call). */
const LEASE_MS = 120_000;
/** How long a second request waits for the first before answering `request_in_progress`. */
const MAX_WAIT_MS = 15_000;

/**
 * A per-user lock that holds across processes and instances: a row in `billing_locks`, claimed with
 * `INSERT … ON CONFLICT DO NOTHING` (the primary key decides the winner on SQLite and PostgreSQL),
 * released by deleting it, and expiring after a lease so a crashed holder cannot block the user.
 * Not `SELECT … FOR UPDATE`: SQLite has no row locks, and a transaction held across the provider's
 * HTTP call would stall every other query on SQLite's single connection. Lease times are wall-clock
 * (`Date.now()`), not the application clock: they bound real waiting, not billing time.
 * Re-entrant within one async call chain, so `create()` can call the customer service under it.
 */
export class BillingLock {
  static inject = [DbKey] as const;
  readonly #held = new AsyncLocalStorage<Set<string>>();

  constructor(private readonly db: Kysely<Database>) {}

  async forUser<T>(userId: number, fn: () => Promise<T>): Promise<T> {
    const name = `user:${userId}`;
    const held = this.#held.getStore();
    if (held?.has(name)) return fn();
    const holder = await this.acquire(name);
    try {
      return await this.#held.run(new Set([...(held ?? []), name]), fn);
    } finally {
      await this.db
        .deleteFrom('billing_locks')
        .where('name', '=', name)
        .where('holder', '=', holder)
        .execute();
    }
  }

  /**
   * Claims `name` for `ms` (wall clock) unless a claim of it is still running, without waiting:
   * true for the one caller, in any instance, that got it. Never released — it expires — so a job
   * that claims its slot for its interval runs once per interval however many instances schedule it.
   */
  claimFor(name: string, ms: number): Promise<boolean> {
    return this.claim(name, randomUUID(), ms);
  }

  private async acquire(name: string): Promise<string> {
    const holder = randomUUID();
    const deadline = Date.now() + MAX_WAIT_MS;
    for (let delay = 10; ; delay = Math.min(delay * 2, 200)) {
      if (await this.claim(name, holder, LEASE_MS)) return holder;
      if (Date.now() >= deadline) throw BillingError.requestInProgress();
      await wait(delay);
    }
  }

  /** One attempt: an expired claim of `name` is cleared, then the primary key picks one claimant. */
  private async claim(name: string, holder: string, ms: number): Promise<boolean> {
    const now = Date.now();
    await this.db
      .deleteFrom('billing_locks')
      .where('name', '=', name)
      .where('expires_at', '<', now)
      .execute();
    const claimed = await this.db
      .insertInto('billing_locks')
      .values({ name, holder, expires_at: now + ms })
      .onConflict((oc) => oc.column('name').doNothing())
      .executeTakeFirst();
    return Number(claimed.numInsertedOrUpdatedRows ?? 0) === 1;
  }
}
