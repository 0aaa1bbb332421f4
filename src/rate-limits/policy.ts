/**
 * One rate limit's shape, as configuration declares it. Every limit counts an attempt *before*
 * the work it guards (a password check, a client authentication), so parallel requests cannot
 * slip past it.
 */
export interface RateLimitPolicy {
  /** Attempts allowed per window; 0 turns the limit off. */
  points: number;
  /** The window, in seconds: the counter starts at the first attempt and resets after it. */
  durationSeconds: number;
  /**
   * Increasing back-off. When set, the attempt that goes over the limit blocks the key for
   * `durationSeconds`, doubled at each further block within a day, up to this many seconds.
   * Unset or 0: the key waits for the end of its window.
   */
  maxBlockSeconds?: number;
}

/**
 * The window of a `failuresOnly` limit's attempts in flight: an attempt a crash never settled
 * counts at most this long. Longer than the requests it guards take; one settled after its window
 * ended takes one from the next window's count, never below zero, and counts its failure in full.
 */
export const IN_FLIGHT_SECONDS = 10;

/** How long the strikes that double a back-off are remembered (a day without a new block). */
export const STRIKE_MEMORY_SECONDS = 86_400;

/** The block that the n-th strike (1, 2, …) earns: the window, doubled per strike, capped. */
export function blockSeconds(policy: RateLimitPolicy, strike: number): number {
  const max = policy.maxBlockSeconds ?? 0;
  return Math.min(policy.durationSeconds * 2 ** Math.min(Math.max(strike - 1, 0), 30), max);
}

/**
 * `"5/60"` (5 attempts per 60 seconds), `"5/60/900"` (with back-off up to 900 seconds) or `"0"`
 * (off), for environment variables; undefined when unset.
 */
export function parsePolicy(value: string | undefined, name: string): RateLimitPolicy | undefined {
  if (value === undefined || value === '') return undefined;
  if (value.trim() === '0') return { points: 0, durationSeconds: 60 };
  const match = /^\s*(\d+)\s*\/\s*(\d+)\s*(?:\/\s*(\d+)\s*)?$/.exec(value);
  if (!match || Number(match[2]) === 0) {
    throw new Error(
      `${name} must look like "5/60" (attempts/seconds) or "5/60/900" (with back-off), got "${value}".`,
    );
  }
  const policy: RateLimitPolicy = { points: Number(match[1]), durationSeconds: Number(match[2]) };
  if (match[3]) policy.maxBlockSeconds = Number(match[3]);
  return policy;
}
