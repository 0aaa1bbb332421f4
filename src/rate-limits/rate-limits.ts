import type { Kysely } from 'kysely';
import type { RateLimiterAbstract } from 'rate-limiter-flexible';
import type { Clock } from '../core/clock.js';
import { ConfigurationError } from '../core/errors.js';
import type { Logger } from '../core/logger.js';
import type { Database } from '../database/types.js';
import { KyselyRateLimiter, rewardAndClear } from './kysely-limiter.js';
import { LeasedLimit, type LeasedLimitOptions } from './leased-limit.js';
import { IN_FLIGHT_SECONDS, type RateLimitPolicy, STRIKE_MEMORY_SECONDS } from './policy.js';
import { RateLimit } from './rate-limit.js';
import { RedisRateLimiter } from './redis-limiter.js';
import { RequestPathRedis } from './request-path-redis.js';

export interface RateLimitsOptions {
  db: Kysely<Database>;
  clock: Clock;
  logger: Logger;
  /** Redis URL; empty: the counters live in the database (the `rate_limits` table). */
  redisUrl: string;
  /** Prefix of the Redis keys; instances that share limits must share it. */
  redisPrefix: string;
}

/**
 * The application's named rate limits, shared by every instance on the same store: Redis when
 * configured (with the database as insurance while Redis does not answer), else the database.
 * Modules define their limits at registration and look them up by name.
 *
 * @example
 * const login = limits.define('login.account', { points: 5, durationSeconds: 60 });
 * if (!(await login.consume(email)).allowed) return tooManyAttempts();
 */
export class RateLimits {
  readonly #limits = new Map<string, RateLimit>();
  readonly #leased = new Set<LeasedLimit>();
  #redis: RequestPathRedis | undefined;
  #redisDown = false;
  #redisErrors = 0;

  constructor(private readonly options: RateLimitsOptions) {}

  /** Where the counters live. */
  get store(): 'redis' | 'database' {
    return this.options.redisUrl ? 'redis' : 'database';
  }

  /**
   * `failuresOnly`: the limit counts attempts that failed (`begin`, then `settle`), holding the ones
   * in flight for `IN_FLIGHT_SECONDS` only — for attempts a crash may leave unsettled.
   */
  define(name: string, policy: RateLimitPolicy, options: { failuresOnly?: boolean } = {}): RateLimit {
    if (!/^[a-z][a-z0-9._-]*$/.test(name)) throw new ConfigurationError(`Bad rate limit name "${name}".`);
    if (!(policy.points >= 0) || !(policy.durationSeconds > 0)) {
      throw new ConfigurationError(`Rate limit "${name}" needs points ≥ 0 and durationSeconds > 0.`);
    }
    const limit = new RateLimit(name, Object.freeze({ ...policy }), {
      counter: this.#limiter(name, policy.points, policy.durationSeconds),
      strikes: policy.maxBlockSeconds
        ? this.#limiter(`${name}.strikes`, Number.MAX_SAFE_INTEGER, STRIKE_MEMORY_SECONDS)
        : undefined,
      inFlight: options.failuresOnly
        ? this.#limiter(`${name}.in-flight`, policy.points, IN_FLIGHT_SECONDS)
        : undefined,
    });
    this.#limits.set(name, limit);
    return limit;
  }

  get(name: string): RateLimit {
    const limit = this.#limits.get(name);
    if (!limit) throw new ConfigurationError(`No rate limit is named "${name}".`);
    return limit;
  }

  has(name: string): boolean {
    return this.#limits.has(name);
  }

  /**
   * `reward` on each of `rewards` and `clear` on each of `clears` (a limit and its subject): a
   * successful login's settlement. With the counters in the database it is one statement, which
   * writes only the rows that exist.
   */
  async rewardAndClear(
    rewards: readonly (readonly [RateLimit, string])[],
    clears: readonly (readonly [RateLimit, string])[],
  ): Promise<void> {
    if (this.store === 'redis') {
      await Promise.all([...rewards.map(([l, s]) => l.reward(s)), ...clears.map(([l, s]) => l.clear(s))]);
      return;
    }
    const reward = rewards.filter(([limit]) => limit.enabled).map(([l, s]) => l.storeKeys(s).counter);
    const clear = clears
      .filter(([limit]) => limit.enabled)
      .flatMap(([l, s]) => Object.values(l.storeKeys(s)).filter((key) => key !== undefined));
    if (reward.length + clear.length === 0) return;
    await rewardAndClear(this.options.db, this.options.clock.now().getTime(), { reward, clear });
  }

  /** Every defined limit. */
  all(): RateLimit[] {
    return [...this.#limits.values()];
  }

  /**
   * Waits (up to `timeoutMs`) for Redis to answer, so the first attempts count where the later
   * ones will; the application calls it at boot. Without Redis, or when it does not answer in
   * time (logged), the database counts meanwhile.
   */
  async start(timeoutMs = 2_000): Promise<void> {
    const redis = this.#redis;
    if (!redis || redis.status === 'ready') return;
    let timer: NodeJS.Timeout | undefined;
    const ready = new Promise<boolean>((resolve) => {
      redis.once('ready', () => resolve(true));
      timer = setTimeout(() => resolve(false), timeoutMs);
    });
    if (!(await ready))
      this.options.logger.warn('Redis did not answer at boot: rate limits count in the database');
    clearTimeout(timer);
  }

  /** Rejects unless Redis answers now (readiness); resolves at once without Redis. */
  async pingRedis(): Promise<void> {
    if (this.options.redisUrl) await this.#connection(this.options.redisUrl).ping();
  }

  /** Errors the Redis connection reported since boot (metrics read it on a scrape). */
  get redisErrors(): number {
    return this.#redisErrors;
  }

  /** `limit` counted in memory in leases of the store (`LeasedLimit`), handed back at `close`. */
  leased(limit: RateLimit, options?: LeasedLimitOptions): LeasedLimit {
    const leased = new LeasedLimit(limit, options);
    this.#leased.add(leased);
    return leased;
  }

  /** Hands back what the leases did not use, then closes the Redis connection, if any. */
  async close(): Promise<void> {
    const now = this.options.clock.now().getTime();
    await Promise.all([...this.#leased].map((leased) => leased.release(now)));
    this.#leased.clear();
    const redis = this.#redis;
    this.#redis = undefined;
    if (!redis) return;
    if (redis.status === 'ready') await redis.quit().catch(() => undefined);
    redis.disconnect();
  }

  #limiter(keyPrefix: string, points: number, duration: number): RateLimiterAbstract {
    const { db, clock, redisUrl, redisPrefix } = this.options;
    const database = new KyselyRateLimiter({ db, clock, keyPrefix, points, duration });
    if (!redisUrl) return database;
    return new RedisRateLimiter({
      storeClient: this.#connection(redisUrl),
      keyPrefix: `${redisPrefix}rl:${keyPrefix}`,
      points,
      duration,
      // Never queue a count while Redis is away: answer from the database at once instead.
      rejectIfRedisNotReady: true,
      insuranceLimiter: database,
    });
  }

  #connection(url: string): RequestPathRedis {
    if (this.#redis) return this.#redis;
    const redis = new RequestPathRedis(url);
    redis.on('error', (err: Error) => {
      this.#redisErrors++;
      if (this.#redisDown) return;
      this.#redisDown = true;
      this.options.logger.warn(
        { err: err.message },
        'Redis is not answering: rate limits count in the database',
      );
    });
    redis.on('ready', () => {
      if (this.#redisDown) this.options.logger.info('Redis is back: rate limits count in Redis again');
      this.#redisDown = false;
    });
    this.#redis = redis;
    return redis;
  }
}
