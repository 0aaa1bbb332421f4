import type { Clock } from '../core/clock.js';

interface Bucket {
  hits: number;
  resetAt: number;
}

/** Past this many keys, expired buckets are swept on the next hit, so memory stays bounded. */
const SWEEP_AT = 10_000;

/**
 * A fixed-window counter per key, in memory (one process). Login uses it per e-mail + IP: it
 * slows password guessing against one account without letting one visitor lock others out.
 */
export class RateLimiter {
  readonly #buckets = new Map<string, Bucket>();

  constructor(
    private readonly clock: Clock,
    readonly maxAttempts: number,
    readonly decaySeconds: number,
  ) {}

  #live(key: string): Bucket | undefined {
    const bucket = this.#buckets.get(key);
    if (bucket && bucket.resetAt <= this.clock.now().getTime()) {
      this.#buckets.delete(key);
      return undefined;
    }
    return bucket;
  }

  tooManyAttempts(key: string): boolean {
    return (this.#live(key)?.hits ?? 0) >= this.maxAttempts;
  }

  /** Counts an attempt; returns the attempts in the current window. */
  hit(key: string): number {
    if (this.#buckets.size >= SWEEP_AT) this.#sweep();
    const bucket = this.#live(key) ?? {
      hits: 0,
      resetAt: this.clock.now().getTime() + this.decaySeconds * 1000,
    };
    bucket.hits += 1;
    this.#buckets.set(key, bucket);
    return bucket.hits;
  }

  /** Seconds until the key may try again. */
  availableIn(key: string): number {
    const bucket = this.#live(key);
    return bucket ? Math.max(1, Math.ceil((bucket.resetAt - this.clock.now().getTime()) / 1000)) : 0;
  }

  clear(key: string): void {
    this.#buckets.delete(key);
  }

  #sweep(): void {
    const now = this.clock.now().getTime();
    for (const [key, bucket] of this.#buckets) if (bucket.resetAt <= now) this.#buckets.delete(key);
  }
}
