import type { RateLimitResult } from '../rate-limits/rate-limit.js';
import { RateLimits } from '../rate-limits/rate-limits.js';

export interface LoginAttempt {
  readonly allowed: boolean;
  /** Every limit consulted, for the `RateLimit` fields and `Retry-After`. */
  readonly results: readonly RateLimitResult[];
}

/**
 * Password guessing limits, shared by the login form and the OAuth password grant: attempts per
 * account and per client address, with increasing back-off. An attempt is counted *before* the
 * password is checked, so parallel guesses cannot outrun the count; a success clears the
 * account's count and gives the address its attempt back; an attempt the server failed to answer
 * gives both back (only answered wrong credentials add up). The limits are defined by
 * `authProvider()` from `config.throttle.login`.
 */
export class LoginThrottle {
  static inject = [RateLimits] as const;

  constructor(private readonly limits: RateLimits) {}

  /** Counts one password attempt; when it is not allowed, do not check the password. */
  async attempt(email: string, address: string): Promise<LoginAttempt> {
    // The address first: an address already refused costs the account nothing.
    const byAddress = await this.limits.get('login.address').consume(address);
    if (!byAddress.allowed) return { allowed: false, results: [byAddress] };
    const byAccount = await this.limits
      .get('login.account')
      .consume(accountOf(email))
      .catch(async (err: unknown) => {
        await this.limits.get('login.address').reward(address);
        throw err;
      });
    return { allowed: byAccount.allowed, results: [byAccount, byAddress] };
  }

  /**
   * The attempt was allowed but never answered (the database failed, say): it gives both its
   * counts back, so an outage's errors do not lock out the accounts and addresses that met it.
   * Best effort: the store may be what failed.
   */
  async unanswered(email: string, address: string): Promise<void> {
    await Promise.all([
      this.limits.get('login.account').reward(accountOf(email)),
      this.limits.get('login.address').reward(address),
    ]).catch(() => undefined);
  }

  /** The password matched. */
  async succeeded(email: string, address: string): Promise<void> {
    await this.limits.rewardAndClear(
      [[this.limits.get('login.address'), address]],
      [[this.limits.get('login.account'), accountOf(email)]],
    );
  }
}

/** One account, however its e-mail is spelled (the users table stores it trimmed and lower-case). */
function accountOf(email: string): string {
  return email.trim().toLowerCase();
}

/** "Please try again in N seconds." for the pages. */
export function waitMessage(results: readonly RateLimitResult[]): string {
  const seconds = Math.max(1, ...results.filter((r) => !r.allowed).map((r) => r.resetSeconds));
  return seconds === 1 ? 'Please try again in 1 second.' : `Please try again in ${seconds} seconds.`;
}
