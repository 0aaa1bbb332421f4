import { createHash } from 'node:crypto';
import { type RateLimiterAbstract, RateLimiterRes } from 'rate-limiter-flexible';
import { blockSeconds, type RateLimitPolicy } from './policy.js';

/** One limit's answer for one key: what the `RateLimit` header and `Retry-After` report. */
export interface RateLimitResult {
  readonly name: string;
  readonly policy: RateLimitPolicy;
  readonly allowed: boolean;
  readonly remaining: number;
  /** Seconds until the window resets, or until the block ends when refused. */
  readonly resetSeconds: number;
}

/** What `RateLimit.claim` got from the store. */
export interface RateLimitClaim {
  readonly granted: number;
  /** Attempts the window has counted, this claim included (granted or not). */
  readonly consumed: number;
  readonly msBeforeNext: number;
}

/**
 * The limiters behind one named limit: the counter, the strikes that double its blocks, and, for a
 * limit that counts failures only, the attempts in flight (a short window of its own).
 */
export interface RateLimitStores {
  counter: RateLimiterAbstract;
  strikes?: RateLimiterAbstract | undefined;
  inFlight?: RateLimiterAbstract | undefined;
}

/**
 * A named limit (`login.account`, `token.client`, …). Subjects — an e-mail, an address, a
 * client id — are hashed into the key, so the store holds no personal data.
 */
export class RateLimit {
  #refusals = 0;

  constructor(
    readonly name: string,
    readonly policy: RateLimitPolicy,
    private readonly stores: RateLimitStores,
  ) {}

  get enabled(): boolean {
    return this.policy.points > 0;
  }

  /**
   * Counts one attempt for `subject` and says whether it may go ahead. Call it before the work
   * it guards: the count is atomic, so of N parallel attempts at most `points` are allowed.
   */
  async consume(subject: string): Promise<RateLimitResult> {
    if (!this.enabled) return this.#result(true, new RateLimiterRes(Number.MAX_SAFE_INTEGER, 0));
    const { allowed, res } = await this.#count(keyOf(subject));
    return this.#result(allowed, res);
  }

  /**
   * Starts an attempt that counts only if it fails (`settle`), on a limit defined with
   * `failuresOnly`: allowed while the window's failures and the attempts in flight stay within the
   * limit. The attempt holds its place in a short window of its own, so one that a crash never
   * settles stops counting within that window instead of until the failures' window ends. Without
   * `failuresOnly` it is `consume`, and a settled success gives the attempt back.
   */
  async begin(subject: string): Promise<RateLimitResult> {
    const inFlight = this.stores.inFlight;
    if (!this.enabled || !inFlight) return this.consume(subject);
    const key = keyOf(subject);
    const held = await inFlight.consume(key).catch((rejection: unknown) => {
      if (rejection instanceof RateLimiterRes) return rejection;
      throw rejection;
    });
    // Read after taking a place: an attempt that settled meanwhile has its failure counted (its
    // place, perhaps, too), so of parallel attempts never more than `points` get through.
    const failed = await this.stores.counter.get(key).catch(async (err: unknown) => {
      await inFlight.reward(key);
      throw err;
    });
    const failures = failed?.consumedPoints ?? 0;
    const counted = failures + held.consumedPoints;
    if (counted <= this.policy.points)
      return this.#result(true, new RateLimiterRes(this.policy.points - counted, failed?.msBeforeNext ?? 0));
    await inFlight.reward(key);
    const ms = failures > this.policy.points ? failed!.msBeforeNext : held.msBeforeNext;
    return this.#result(false, new RateLimiterRes(0, ms, counted));
  }

  /** Ends an attempt `begin` allowed: a failure counts (and may start a block), a success does not. */
  async settle(subject: string, failedAttempt: boolean): Promise<void> {
    if (!this.enabled) return;
    const key = keyOf(subject);
    const inFlight = this.stores.inFlight;
    if (!inFlight) {
      if (!failedAttempt) await this.stores.counter.reward(key);
      return;
    }
    if (failedAttempt) await this.#count(key);
    await inFlight.reward(key);
  }

  /** One attempt on the counter; the first over the limit starts the next, longer block. */
  async #count(key: string): Promise<{ allowed: boolean; res: RateLimiterRes }> {
    try {
      return { allowed: true, res: await this.stores.counter.consume(key) };
    } catch (rejection) {
      if (!(rejection instanceof RateLimiterRes)) throw rejection;
      // Exactly one attempt is the first over the limit (the counts are atomic): it starts the
      // next, longer block. The others report the block in force.
      if (this.stores.strikes && rejection.consumedPoints === this.policy.points + 1) {
        const strike = await this.stores.strikes.penalty(key);
        const seconds = blockSeconds(this.policy, strike.consumedPoints);
        if (seconds > 0) {
          await this.stores.counter.block(key, seconds);
          return { allowed: false, res: new RateLimiterRes(0, seconds * 1000, this.policy.points + 1) };
        }
      }
      return { allowed: false, res: rejection };
    }
  }

  /**
   * Takes up to `points` attempts at once for `subject` (a lease a `LeasedLimit` hands out in
   * memory): one atomic increment in the store. Says how many were granted — fewer, or none, when
   * the window has less left — how many the window has counted in all, and when it resets.
   */
  async claim(subject: string, points: number): Promise<RateLimitClaim> {
    if (!this.enabled)
      return { granted: points, consumed: 0, msBeforeNext: this.policy.durationSeconds * 1000 };
    try {
      const res = await this.stores.counter.consume(keyOf(subject), points);
      return { granted: points, consumed: res.consumedPoints, msBeforeNext: res.msBeforeNext };
    } catch (rejection) {
      if (!(rejection instanceof RateLimiterRes)) throw rejection;
      const before = rejection.consumedPoints - points;
      const granted = Math.max(0, Math.min(points, this.policy.points - before));
      return { granted, consumed: rejection.consumedPoints, msBeforeNext: rejection.msBeforeNext };
    }
  }

  /** Gives back `points` attempts of the current window, claimed but not used (a lease's rest). */
  async giveBack(subject: string, points: number): Promise<void> {
    if (this.enabled && points > 0) await this.stores.counter.reward(keyOf(subject), points);
  }

  /** Gives back one attempt (the work succeeded and should not count against the subject). */
  async reward(subject: string): Promise<void> {
    if (this.enabled) await this.stores.counter.reward(keyOf(subject));
  }

  /** Forgets the subject's attempts and strikes (after a successful login, say). */
  async clear(subject: string): Promise<void> {
    if (!this.enabled) return;
    const key = keyOf(subject);
    await Promise.all([this.stores.counter.delete(key), this.stores.strikes?.delete(key)]);
  }

  /** The store's keys of `subject`'s counter and strikes (`RateLimits.rewardAndClear` writes them). */
  storeKeys(subject: string): { counter: string; strikes?: string | undefined } {
    const key = keyOf(subject);
    return { counter: this.stores.counter.getKey(key), strikes: this.stores.strikes?.getKey(key) };
  }

  /** Attempts refused since boot, here or by a lease of this limit (metrics read it on a scrape). */
  get refusals(): number {
    return this.#refusals;
  }

  /** Counts one refused attempt (a `LeasedLimit` refusing in memory calls it). */
  noteRefusal(): void {
    this.#refusals++;
  }

  #result(allowed: boolean, res: RateLimiterRes): RateLimitResult {
    if (!allowed) this.#refusals++;
    const ms = res.msBeforeNext > 0 ? res.msBeforeNext : this.policy.durationSeconds * 1000;
    return {
      name: this.name,
      policy: this.policy,
      allowed,
      remaining: allowed ? Math.min(res.remainingPoints, this.policy.points) : 0,
      resetSeconds: Math.max(1, Math.ceil(ms / 1000)),
    };
  }
}

function keyOf(subject: string): string {
  return createHash('sha256').update(subject).digest('base64url');
}
