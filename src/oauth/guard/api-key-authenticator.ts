import type { Context } from 'hono';
import type { User } from '../../auth/user.js';
import { type Clock, millis } from '../../core/clock.js';
import { LruCache } from '../../core/lru.js';
import { tooManyRequests } from '../../rate-limits/http.js';
import type { LeasedLimit } from '../../rate-limits/leased-limit.js';
import type { RateLimitResult } from '../../rate-limits/rate-limit.js';
import type { RateLimits } from '../../rate-limits/rate-limits.js';
import { type ApiKeyEnvironment, checkApiKey, looksLikeApiKey } from '../api-keys/key-format.js';
import type { ApiKeyRecord, ApiKeyStore } from '../api-keys/records.js';
import { OAuthError } from '../errors.js';
import { hashSecret } from '../secrets.js';
import { bearerToken } from './bearer.js';
import type { LastUsed } from './last-used.js';
import type { UserResolver } from './user-resolver.js';
import { apiKeyToken, type VerifiedToken } from './verified-token.js';

export interface ApiKeyAuthenticatorDeps {
  keys: ApiKeyStore;
  clock: Clock;
  /** The keys this server accepts: `tg_live_…` or `tg_test_…`. */
  environment: ApiKeyEnvironment;
  /** The other header a key may come in (lower case), beside `Authorization: Bearer`; empty: none. */
  header: string;
  lastUsed: LastUsed;
  /** Per-key requests-per-minute limits (`rateLimitPerMinute`); absent: not enforced. */
  limits?: RateLimits;
  /** How long a live key's row is trusted before it is read again (the guard's `recheckAfterMs`). */
  recheckAfterMs: number;
}

interface KeyEntry {
  /** Undefined: no such key (dead for good). */
  readonly record: ApiKeyRecord | undefined;
  readonly token: VerifiedToken | undefined;
  live: boolean;
  readonly checkedAt: number;
  touchedAt: number;
}

type SignedIn = { user: User; token: VerifiedToken };

const refuse = (reason: 'invalid' | 'expired' | 'revoked', detail: string) =>
  OAuthError.invalidToken({ reason, detail });

/**
 * API keys in the `api` guard, the third credential kind: `Authorization: Bearer tg_…` or the
 * configured header. The prefix and checksum are checked first, without I/O; then the key's
 * SHA-256 is looked up once and its state cached — revocations arrive as events (from this and,
 * through Redis, other instances) and a live row is read again after `recheckAfterMs`, exactly as
 * for access tokens. The key becomes a `VerifiedToken` (scopes, `tokenCan`, `scopes:` middleware).
 */
export class ApiKeyAuthenticator {
  readonly #byKey = new LruCache<string, KeyEntry>(10_000);
  /** Ids revoked while this instance ran: wins over a live row read before the revocation. */
  readonly #revoked = new LruCache<string, true>(10_000);
  /** The per-key limits by their requests a minute, each counted in leases. */
  readonly #leased = new Map<number, LeasedLimit>();

  /** The injected clock in milliseconds (`millis`). */
  readonly #now: () => number;

  constructor(private readonly deps: ApiKeyAuthenticatorDeps) {
    this.#now = millis(deps.clock);
  }

  /** The request's API key: a `tg_` bearer credential, or the configured header. */
  credential(c: Context, authorization: string | undefined): string | undefined {
    if (authorization !== undefined) {
      const bearer = bearerToken(authorization);
      return bearer !== undefined && looksLikeApiKey(bearer) ? bearer : undefined;
    }
    return this.deps.header ? c.req.header(this.deps.header) : undefined;
  }

  /** The key's token, or a thrown 401 `invalid_token` (429 over the key's own limit). */
  authenticate(key: string, now: number): VerifiedToken | Promise<VerifiedToken> {
    const entry = this.#byKey.get(key);
    const trusted = entry !== undefined && (!entry.live || now - entry.checkedAt < this.deps.recheckAfterMs);
    return trusted ? this.#accept(entry, now) : this.#lookup(key, now);
  }

  async #lookup(key: string, now: number): Promise<VerifiedToken> {
    // A mistyped, truncated or made-up key, or one of the other environment: refused unread.
    if (checkApiKey(key) !== this.deps.environment)
      throw refuse('invalid', 'not an API key of this environment');
    const record = await this.deps.keys.findByHash(hashSecret(key));
    const live = record !== undefined && !record.revoked && !this.#revoked.has(record.id);
    const entry: KeyEntry = {
      record,
      token: record ? apiKeyToken(record) : undefined,
      live,
      checkedAt: now,
      touchedAt: Number.NEGATIVE_INFINITY,
    };
    this.#byKey.set(key, entry);
    return this.#accept(entry, now);
  }

  #accept(entry: KeyEntry, now: number): VerifiedToken | Promise<VerifiedToken> {
    const { record, token } = entry;
    if (record === undefined || token === undefined) throw refuse('invalid', 'an unknown API key');
    if (!entry.live) throw refuse('revoked', 'a revoked API key');
    if (this.#now() >= token.expiresAtMs) throw refuse('expired', 'an expired API key');
    if (this.deps.lastUsed.due(entry.touchedAt, now)) {
      entry.touchedAt = now;
      this.deps.lastUsed.record('api_keys', record.id);
    }
    const perMinute = record.rateLimitPerMinute;
    return perMinute === null || !this.deps.limits ? token : this.#limit(record.id, perMinute, token);
  }

  /** The key's per-minute limit, counted in memory in leases of the shared store (`LeasedLimit`). */
  #limit(id: string, perMinute: number, token: VerifiedToken): VerifiedToken | Promise<VerifiedToken> {
    let leased = this.#leased.get(perMinute);
    if (leased === undefined) {
      const limits = this.deps.limits!;
      const name = `api-key.minute.${perMinute}`;
      const limit = limits.has(name)
        ? limits.get(name)
        : limits.define(name, { points: perMinute, durationSeconds: 60 });
      leased = limits.leased(limit);
      this.#leased.set(perMinute, leased);
    }
    const check = (result: RateLimitResult) => {
      if (!result.allowed) throw tooManyRequests([result]);
      return token;
    };
    const result = leased.consume(id, this.#now());
    return result instanceof Promise ? result.then(check) : check(result);
  }

  /**
   * The user of the request's API key, bound to the key's token (401 `unknown_user` when the user
   * is gone); undefined when the request carries no API key.
   */
  signIn(c: Context, authorization: string | undefined, users: UserResolver): Promise<SignedIn> | undefined {
    const key = this.credential(c, authorization);
    return key === undefined ? undefined : this.#signIn(key, users, performance.now());
  }

  async #signIn(key: string, users: UserResolver, now: number): Promise<SignedIn> {
    const token = await this.authenticate(key, now);
    const user = await users.resolve(token, undefined, now);
    if (user === undefined) throw OAuthError.invalidToken({ reason: 'unknown_user' });
    return { user, token };
  }

  /** A key revoked here or on another instance: refused from now on, also by a lookup in flight. */
  revoke(id: string): void {
    this.#revoked.set(id, true);
    for (const [, entry] of this.#byKey.entries()) if (entry.record?.id === id) entry.live = false;
  }

  /** Forgets every cached state (after missing revocation messages): the next requests read the rows. */
  clear(): void {
    this.#byKey.clear();
  }
}
