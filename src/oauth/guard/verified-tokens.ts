import type { User } from '../../auth/user.js';
import { LruCache } from '../../core/lru.js';
import { OAuthError } from '../errors.js';
import type { AccessTokenClaims } from '../jwt/claims.js';
import { accessTokenOf } from './bearer.js';
import { toVerifiedToken, type VerifiedToken } from './verified-token.js';

/** One Authorization header whose token was verified, and what its requests reuse. */
export interface VerifiedEntry {
  readonly header: string;
  readonly token: VerifiedToken;
  /** The user model bound to this token (set by the user resolver) and when it was loaded. */
  user: User | undefined;
  userAt: number;
  /** `performance.now()` when its last use was recorded (`LastUsed`). */
  touchedAt: number;
}

/**
 * The verified-token cache: the Authorization header exactly as sent → its verified claims, until
 * `exp` (the guard checks it on every hit). A header is hashed from its last 16 characters (inside
 * the signature, so well spread) into a number: hashing a fresh 800-character string for a `Map`
 * would cost more than the rest of a cached check. A hit compares the whole header.
 *
 * Admission (TinyLFU's doorkeeper): a header is cached the second time it is verified, not the
 * first. A client that sends a new token with every request would otherwise churn the whole cache
 * (and the old generation of the heap) for nothing; a reused token pays one extra verification.
 */
export class VerifiedTokenCache {
  readonly #entries: LruCache<number, VerifiedEntry>;
  /** Fingerprints by slot: no allocation, a false positive only admits early. */
  readonly #doorkeeper: Uint32Array;

  /** `capacity`: verified tokens kept. Default 10,000. */
  constructor(capacity = 10_000) {
    this.#entries = new LruCache(capacity);
    this.#doorkeeper = new Uint32Array(2 ** Math.max(10, Math.ceil(Math.log2(2 * capacity))));
  }

  get size(): number {
    return this.#entries.size;
  }

  /** The entry for exactly this header. */
  get(header: string): VerifiedEntry | undefined {
    const entry = this.#entries.get(hashTail(header));
    return entry !== undefined && entry.header === header ? entry : undefined;
  }

  /**
   * Verifies the header's bearer token (signature, issuer, type, expiry: the verifier's
   * `invalid_token` errors pass through, thrown or rejected) and keeps it if admitted;
   * synchronously when the verifier answers so.
   */
  verify(
    header: string,
    verifier: { check(raw: string): AccessTokenClaims | Promise<AccessTokenClaims> },
  ): VerifiedEntry | Promise<VerifiedEntry> {
    const raw = accessTokenOf(header);
    if (!raw) throw OAuthError.invalidToken({ reason: 'invalid', detail: 'an empty bearer token' });
    const claims = verifier.check(raw);
    if (claims instanceof Promise)
      return claims.then((verified) => this.add(header, toVerifiedToken(verified)));
    return this.add(header, toVerifiedToken(claims));
  }

  /** Keeps a freshly verified token if it was verified before; the entry either way. */
  add(header: string, token: VerifiedToken): VerifiedEntry {
    const entry: VerifiedEntry = { header, token, user: undefined, userAt: 0, touchedAt: -Infinity };
    const hash = hashTail(header);
    const slot = hash & (this.#doorkeeper.length - 1);
    const fingerprint = (Math.imul(hash, 0x9e3779b1) | 1) >>> 0;
    if (this.#doorkeeper[slot] === fingerprint) this.#entries.set(hash, entry);
    else this.#doorkeeper[slot] = fingerprint;
    return entry;
  }

  delete(header: string): void {
    const hash = hashTail(header);
    if (this.#entries.peek(hash)?.header === header) this.#entries.delete(hash);
  }

  /** Forgets every user model the entries hold (the next request of each token loads it again). */
  forgetUsers(): void {
    for (const [, entry] of this.#entries.entries()) entry.user = undefined;
  }
}

/** FNV-1a of the last 16 characters, as an unsigned 32-bit number. */
function hashTail(header: string): number {
  let h = 0x811c9dc5;
  for (let i = Math.max(0, header.length - 16); i < header.length; i++)
    h = Math.imul(h ^ header.charCodeAt(i), 0x01000193);
  return h >>> 0;
}
