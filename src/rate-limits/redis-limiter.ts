import { RateLimiterRedis } from 'rate-limiter-flexible';
import type { RequestPathRedis } from './request-path-redis.js';

// The library rewards with its consume script: a reward after the window ended opens a new window
// at a negative count, and one that lands in a newer window can take it below zero. Either lets that
// many more attempts through: a `failuresOnly` limit's attempts in flight settle after their short
// window ended (a request that straddles its end), and each would free a place for another guess,
// even once the failures were all spent. So a reward here lowers a live count, and not below zero.
const REWARD_LIVE = `if redis.call('exists', KEYS[1]) == 0 then return {0, -1} end
local consumed = redis.call('incrby', KEYS[1], ARGV[1])
if consumed < 0 then consumed = redis.call('incrby', KEYS[1], -consumed) end
return {consumed, redis.call('pttl', KEYS[1])}`;

type Options = ConstructorParameters<typeof RateLimiterRedis>[0] & { storeClient: RequestPathRedis };
type Upsert = (key: string, points: number, msDuration: number, forceExpire?: boolean) => Promise<unknown>;
type WithReward = RequestPathRedis & { tollgateRewardLive(key: string, points: string): Promise<unknown> };

/** `RateLimiterRedis` whose rewards (negative points) only lower a live count, never below zero. */
export class RedisRateLimiter extends RateLimiterRedis {
  readonly #redis: WithReward;

  constructor(options: Options) {
    super(options);
    const redis = options.storeClient;
    if (!('tollgateRewardLive' in redis))
      redis.defineCommand('tollgateRewardLive', { numberOfKeys: 1, lua: REWARD_LIVE });
    this.#redis = redis as WithReward;
  }

  _upsert(key: string, points: number, msDuration: number, forceExpire = false): Promise<unknown> {
    if (points >= 0 || forceExpire) {
      const upsert = (RateLimiterRedis.prototype as unknown as { _upsert: Upsert })._upsert;
      return upsert.call(this, key, points, msDuration, forceExpire);
    }
    // Not ready: rejected at once, and the database (the insurance limiter) takes the reward.
    if (this.#redis.status !== 'ready') return Promise.reject(new Error('Redis connection is not ready'));
    return this.#redis.tollgateRewardLive(key, String(points));
  }
}
