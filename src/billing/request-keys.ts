import { createHash, randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Clock } from '../core/clock.js';
import { ClockKey } from '../core/keys.js';
import { DbKey } from '../database/keys.js';
import type { Database } from '../database/types.js';
import type { BillableRef } from './billable-user.js';
import { BillingLock } from './billing-lock.js';
import { BillingError } from './errors.js';

/** One billing operation run at most once per request key: how to run it, store and reload its result. */
export interface KeyedOperation<T> {
  /** `subscription.create:main`, `charge`: with the user and the request key, names the operation. */
  operation: string;
  /** What must be equal for a replay (Stripe's rule: same key, other parameters → an error). */
  params: unknown;
  /** Runs the operation with the provider idempotency key to send (stable across the SDK's retries). */
  run(idempotencyKey: string): Promise<T>;
  save(result: T): string;
  load(saved: string): Promise<T>;
}

/**
 * Double submits and retries. Every operation runs under the user's lock; with a caller's request
 * key, the first run's result is stored in `billing_requests` and replayed to every later call with
 * that key, and the provider idempotency key is derived from the operation, the user and the request
 * key (so Stripe also replays, even when our own write after its answer failed). Without a request
 * key, the idempotency key is random once per operation: still the same across the SDK's retries.
 */
export class RequestKeys {
  static inject = [DbKey, BillingLock, ClockKey] as const;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly lock: BillingLock,
    private readonly clock: Clock,
  ) {}

  async once<T>(owner: BillableRef, requestKey: unknown, op: KeyedOperation<T>): Promise<T> {
    if (requestKey === undefined || requestKey === null) {
      return this.lock.forOwner(owner, () => op.run(`tollgate-${op.operation}-${randomUUID()}`));
    }
    if (typeof requestKey !== 'string' || requestKey.length < 1 || requestKey.length > 255) {
      throw BillingError.invalidRequestKey(requestKey);
    }
    // A user's keys hash as they always did; another owner's type keeps its ids apart from users'.
    const key = `tollgate-${hash(owner.type === 'user' ? [owner.id, requestKey] : [owner.type, owner.id, requestKey])}`;
    const fingerprint = hash([op.operation, op.params]);
    return this.lock.forOwner(owner, async () => {
      const stored = await this.db
        .selectFrom('billing_requests')
        .select(['fingerprint', 'result'])
        .where('key', '=', key)
        .executeTakeFirst();
      if (stored) {
        if (stored.fingerprint !== fingerprint) throw BillingError.requestKeyReused();
        return op.load(stored.result);
      }
      const result = await op.run(`${key}-${op.operation}`);
      await this.db
        .insertInto('billing_requests')
        .values({ key, fingerprint, result: op.save(result), created_at: this.clock.now().toISOString() })
        .execute();
      return result;
    });
  }
}

function hash(value: unknown): string {
  return createHash('sha256').update(JSON.stringify(value)).digest('hex').slice(0, 40);
}
