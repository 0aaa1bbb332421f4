import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import { setTimeout as wait } from 'node:timers/promises';
import type { Kysely } from 'kysely';
import { DbKey } from '../database/keys.js';
import type { Database } from '../database/types.js';
import type { BillableRef } from './billable-user.js';
import { BillingError } from './errors.js';

/** How long a lock and the claimant's patience last; shorter in tests. */
export interface BillingLockTiming {
  /** A claim lasts this long unless its holder renews it: the longest a killed holder blocks its user. */
  leaseMs: number;
  /** A live holder renews its claim this often, so an operation may take as long as it needs. */
  renewMs: number;
  /** How long a second request waits for the first before answering `request_in_progress`. */
  maxWaitMs: number;
}

// The wait outlasts a lease: a request behind a holder that was killed gets the lock, late.
const TIMING: BillingLockTiming = { leaseMs: 10_000, renewMs: 2_500, maxWaitMs: 15_000 };

/**
 * A per-owner lock (a user's, an organization's) that holds across processes and instances: a row in `billing_locks`, claimed with
 * `INSERT … ON CONFLICT DO NOTHING` (the primary key decides the winner on SQLite and PostgreSQL),
 * released by deleting it, and expiring after a short lease that a live holder renews while it
 * works, so a holder killed mid-operation (SIGKILL, a lost machine) blocks its user for one lease.
 * Not `SELECT … FOR UPDATE`: SQLite has no row locks, and a transaction held across the provider's
 * HTTP call would stall every other query on SQLite's single connection. Lease times are wall-clock
 * (`Date.now()`), not the application clock: they bound real waiting, not billing time.
 * Re-entrant within one async call chain, so `create()` can call the customer service under it.
 */
export class BillingLock {
  static inject = [DbKey] as const;
  readonly #held = new AsyncLocalStorage<Set<string>>();

  readonly #timing: BillingLockTiming;

  constructor(
    private readonly db: Kysely<Database>,
    timing: Partial<BillingLockTiming> = {},
  ) {
    this.#timing = { ...TIMING, ...timing };
  }

  forUser<T>(userId: number, fn: () => Promise<T>): Promise<T> {
    return this.forOwner({ type: 'user', id: userId }, fn);
  }

  /** The lock of one billable owner (`user:7`, `organization:3`). */
  async forOwner<T>(owner: BillableRef, fn: () => Promise<T>): Promise<T> {
    const name = `${owner.type}:${owner.id}`;
    const held = this.#held.getStore();
    if (held?.has(name)) return fn();
    const holder = await this.acquire(name);
    const renewal = setInterval(() => void this.renew(name, holder), this.#timing.renewMs);
    renewal.unref();
    try {
      return await this.#held.run(new Set([...(held ?? []), name]), fn);
    } finally {
      clearInterval(renewal);
      await this.db
        .deleteFrom('billing_locks')
        .where('name', '=', name)
        .where('holder', '=', holder)
        .execute();
    }
  }

  private async acquire(name: string): Promise<string> {
    const holder = randomUUID();
    const deadline = Date.now() + this.#timing.maxWaitMs;
    for (let delay = 10; ; delay = Math.min(delay * 2, 200)) {
      if (await this.claim(name, holder, this.#timing.leaseMs)) return holder;
      if (Date.now() >= deadline) throw BillingError.requestInProgress();
      await wait(delay);
    }
  }

  /** Extends the holder's claim by a lease from now; a beat the database misses, the next makes up. */
  private async renew(name: string, holder: string): Promise<void> {
    await this.db
      .updateTable('billing_locks')
      .set({ expires_at: Date.now() + this.#timing.leaseMs })
      .where('name', '=', name)
      .where('holder', '=', holder)
      .execute()
      .catch(() => undefined);
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
