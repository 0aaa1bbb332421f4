import { createRequire } from 'node:module';
import { type Kysely, sql } from 'kysely';
import { RateLimiterRes, type RateLimiterStoreAbstract } from 'rate-limiter-flexible';
import type { Clock } from '../core/clock.js';
import type { Database } from '../database/types.js';
import './tables.js';

// The library's base for store-backed limiters (consume, penalty, reward, block, insurance) is
// not in its runtime index, only in its types: load the file it lives in.
const StoreAbstract = createRequire(import.meta.url)(
  'rate-limiter-flexible/lib/RateLimiterStoreAbstract.js',
) as typeof RateLimiterStoreAbstract;

interface Row {
  points: number;
  expire: number | string | null;
}

/** Rows whose window ended are deleted in batches this large, every SWEEP_EVERY writes. */
const SWEEP_BATCH = 500;
const SWEEP_EVERY = 1_000;

export interface KyselyLimiterOptions {
  db: Kysely<Database>;
  clock: Clock;
  keyPrefix: string;
  points: number;
  duration: number;
}

/**
 * rate-limiter-flexible's store contract on our own connection, for SQLite and PostgreSQL alike:
 * each attempt is one `INSERT … ON CONFLICT DO UPDATE … RETURNING`, atomic on both engines, so
 * parallel attempts get distinct counts. Time comes from the application's clock; the table
 * comes from a migration.
 */
export class KyselyRateLimiter extends StoreAbstract {
  readonly #db: Kysely<Database>;
  readonly #clock: Clock;
  #writes = 0;

  constructor(options: KyselyLimiterOptions) {
    super({
      storeClient: options.db,
      keyPrefix: options.keyPrefix,
      points: options.points,
      duration: options.duration,
    });
    this.#db = options.db;
    this.#clock = options.clock;
  }

  _getRateLimiterRes(_key: string, changedPoints: number, row: Row): RateLimiterRes {
    const consumed = Number(row.points);
    const expire = row.expire === null ? null : Number(row.expire);
    return new RateLimiterRes(
      Math.max(this.points - consumed, 0),
      expire === null ? -1 : Math.max(expire - this.#clock.now().getTime(), 0),
      consumed,
      consumed === changedPoints,
    );
  }

  async _upsert(key: string, points: number, msDuration: number, forceExpire = false): Promise<Row> {
    const now = this.#clock.now().getTime();
    if (++this.#writes % SWEEP_EVERY === 0) void this.sweep(now).catch(() => {});
    // A reward only lowers a live counter, and not below zero: it never opens a window with a
    // negative count, and one that lands in a newer window (an attempt that straddled the end of
    // its own) cannot free more places than that window has counted.
    if (points < 0 && !forceExpire) {
      const row = await this.#db
        .updateTable('rate_limits')
        .set({ points: sql`CASE WHEN points + ${points} < 0 THEN 0 ELSE points + ${points} END` })
        .where('key', '=', key)
        .where('expire', '>', now)
        .returning(['points', 'expire'])
        .executeTakeFirst();
      return row ?? { points: 0, expire: null };
    }
    const expire = msDuration > 0 ? now + msDuration : null;
    if (forceExpire)
      return this.#db
        .insertInto('rate_limits')
        .values({ key, points, expire })
        .onConflict((oc) => oc.column('key').doUpdateSet({ points, expire }))
        .returning(['points', 'expire'])
        .executeTakeFirstOrThrow();
    // Written out (the statement the query builder made): building it cost as much as running it,
    // and more while the code is cold, as it is for a lease claim once in a thousand requests.
    const { rows } = await sql<Row>`insert into "rate_limits" ("key", "points", "expire")
      values (${key}, ${points}, ${expire}) on conflict ("key") do update set
        "points" = CASE WHEN rate_limits.expire IS NULL OR rate_limits.expire > ${now} THEN rate_limits.points + excluded.points ELSE excluded.points END,
        "expire" = CASE WHEN rate_limits.expire IS NULL OR rate_limits.expire > ${now} THEN rate_limits.expire ELSE excluded.expire END
      returning "points", "expire"`.execute(this.#db);
    return rows[0]!;
  }

  async _get(key: string): Promise<Row | null> {
    const row = await this.#db
      .selectFrom('rate_limits')
      .select(['points', 'expire'])
      .where('key', '=', key)
      .where((eb) => eb.or([eb('expire', 'is', null), eb('expire', '>', this.#clock.now().getTime())]))
      .executeTakeFirst();
    return row ?? null;
  }

  async _delete(key: string): Promise<boolean> {
    const result = await this.#db.deleteFrom('rate_limits').where('key', '=', key).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  /** Deletes a batch of counters whose window (or block) ended, whatever their limiter. */
  async sweep(now = this.#clock.now().getTime()): Promise<void> {
    await this.#db
      .deleteFrom('rate_limits')
      .where('key', 'in', (eb) =>
        eb.selectFrom('rate_limits').select('key').where('expire', '<', now).limit(SWEEP_BATCH),
      )
      .execute();
  }
}

/**
 * In one statement, gives one attempt back on each live row of `reward` and forgets the rows of
 * `clear` (as `reward` and `delete` do one key at a time): a forgotten row is left expired, which
 * every read and count takes for absent and the sweep deletes. A key without a live row is not
 * written. The values are computed from the row as locked (another attempt may have counted since
 * the select read it). Rows are locked in key order, so two of these cannot wait for each other
 * on PostgreSQL (an `UPDATE … WHERE key IN` would lock in scan order); other statements lock one.
 */
export async function rewardAndClear(
  db: Kysely<Database>,
  now: number,
  keys: { reward: readonly string[]; clear: readonly string[] },
): Promise<void> {
  const rewarded = keys.reward.length > 0 ? sql.join(keys.reward) : sql`null`;
  const cleared = keys.clear.length > 0 ? sql.join(keys.clear) : sql`null`;
  // Given back: one lower, not below zero (as `reward`). Forgotten: zero.
  const points = sql`CASE WHEN rate_limits.key in (${rewarded}) AND rate_limits.points > 0 THEN rate_limits.points - 1 ELSE 0 END`;
  const expire = sql`CASE WHEN rate_limits.key in (${rewarded}) THEN rate_limits.expire ELSE 0 END`;
  await sql`insert into "rate_limits" ("key", "points", "expire")
    select "key", ${points}, ${expire} from "rate_limits"
    where ("key" in (${rewarded}) and "expire" > ${now})
      or ("key" in (${cleared}) and ("expire" is null or "expire" > ${now}))
    order by "key"
    on conflict ("key") do update set "points" = ${points}, "expire" = ${expire}
    where rate_limits.key in (${cleared}) or rate_limits.expire > ${now}`.execute(db);
}
