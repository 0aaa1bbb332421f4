import type { RateLimitResult } from '../../rate-limits/rate-limit.js';
import { RateLimits } from '../../rate-limits/rate-limits.js';

export interface UserCodeAttempt {
  readonly allowed: boolean;
  /** Every limit consulted, for the `RateLimit` fields and `Retry-After`. */
  readonly results: readonly RateLimitResult[];
}

/**
 * Limits on user codes typed at the verification page (RFC 8628 §5.1: brute-forcing the user
 * code), per signed-in user and per address (`oauth.throttle.device`). Counted before the code is
 * looked up, so parallel guesses cannot outrun the count; a code that names a request gives its
 * attempts back, so only wrong codes add up. Defined by `oauthProvider()`.
 */
export class UserCodeAttempts {
  static inject = [RateLimits] as const;

  constructor(private readonly limits: RateLimits) {}

  async attempt(userId: number, address: string): Promise<UserCodeAttempt> {
    const byAddress = await this.limits.get('device.address').consume(address);
    if (!byAddress.allowed) return { allowed: false, results: [byAddress] };
    const byUser = await this.limits.get('device.user').consume(String(userId));
    return { allowed: byUser.allowed, results: [byUser, byAddress] };
  }

  /** The code was right. */
  async succeeded(userId: number, address: string): Promise<void> {
    await Promise.all([
      this.limits.get('device.user').reward(String(userId)),
      this.limits.get('device.address').reward(address),
    ]);
  }
}
