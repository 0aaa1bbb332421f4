import type { Context } from 'hono';
import type { Kysely } from 'kysely';
import type { SessionStore } from '../../auth/session-store.js';
import type { UserRow } from '../../auth/tables.js';
import type { User, UserModel } from '../../auth/user.js';
import type { Users } from '../../auth/users.js';
import { type Clock, SystemClock } from '../../core/clock.js';
import type { Container } from '../../core/container.js';
import type { Database } from '../../database/types.js';
import { OAuthError } from '../errors.js';
import type { AccessTokenVerifier } from '../jwt/access-token-verifier.js';
import type { OAuthStore } from '../stores/contracts.js';
import type { AppTokenCookie } from './app-token.js';
import { AppTokenAuthenticator } from './app-token-authenticator.js';
import { unauthenticated } from './challenge.js';
import { LruCache } from './lru.js';
import { RevocationCache, type TokenState } from './token-states.js';
import { toVerifiedToken, type VerifiedToken } from './verified-token.js';

export interface TokenGuardOptions {
  /** Verified tokens kept (the Authorization header as sent → claims, until `exp`). Default 10,000. */
  maxVerifiedTokens?: number;
  /** Revocation states kept (token id → live/revoked). Default 100,000. */
  maxTokenStates?: number;
  /**
   * How long a live revocation state is trusted before the row is read again. Default: forever —
   * revocations arrive as events (and through Redis from other instances). Set it when several
   * instances run without Redis: a token revoked elsewhere is refused within this time.
   */
  recheckAfterMs?: number;
  /** How long a user's row is reused before it is read again. Default 1,000 ms. */
  userCacheMs?: number;
}

export interface TokenGuardDeps {
  verifier: AccessTokenVerifier;
  store: OAuthStore;
  users: Users;
  db: Kysely<Database>;
  clock: Clock;
  cookie: AppTokenCookie;
  /** The session store, when the auth provider is registered (the cookie is bound to a live session). */
  sessions: () => SessionStore | undefined;
  sessionCookie: string;
}

const EXPIRED = 'The access token has expired.';

/**
 * The `api` guard with the token driver (spec "Authentication" 1, RFC 6750 §2.1): a bearer token
 * from the Authorization header only — never the query string or the body — or, for the
 * application's own frontend, the `app_token` cookie with `X-CSRF-TOKEN` and `X-Requested-With`.
 *
 * A reused token costs no signature check and no query: the verified claims are cached by the
 * token until `exp` (checked against the injected clock on every request), the revocation state
 * by token id until a revocation event, and the user's row for `userCacheMs`.
 */
export class TokenGuard {
  readonly verified: LruCache<string, { header: string; token: VerifiedToken }>;
  readonly revocations: RevocationCache;
  readonly #userRows: LruCache<number, { row: UserRow; at: number }>;
  readonly #userCacheMs: number;
  readonly #now: () => number;
  #actingAs: { user: User | undefined; token: VerifiedToken } | undefined;
  readonly #cookie: AppTokenAuthenticator;
  readonly #doorkeeper: Uint32Array;
  #model: { cls: UserModel; container: Container } | undefined;

  constructor(
    private readonly deps: TokenGuardDeps,
    options: TokenGuardOptions = {},
  ) {
    this.verified = new LruCache(options.maxVerifiedTokens ?? 10_000);
    this.revocations = new RevocationCache(
      options.maxTokenStates ?? 100_000,
      options.recheckAfterMs ?? Number.POSITIVE_INFINITY,
    );
    this.#userRows = new LruCache(options.maxVerifiedTokens ?? 10_000);
    this.#doorkeeper = new Uint32Array(2 ** Math.max(10, Math.ceil(Math.log2(2 * this.verified.capacity))));
    this.#userCacheMs = options.userCacheMs ?? 1_000;
    const clock = deps.clock;
    // The system clock without a Date per request; any other clock (tests) is asked every time.
    this.#now = clock instanceof SystemClock ? Date.now : () => clock.now().getTime();
    this.#cookie = new AppTokenAuthenticator({ ...deps, loadUser: (id) => this.#loadUser(id) });
  }

  /**
   * The `api` guard: the user the request's token belongs to. Throws a 401 `HttpError` with the
   * RFC 6750 challenge otherwise. Synchronous on a cache hit.
   */
  user = (c: Context): User | Promise<User> => {
    if (this.#actingAs) return this.#acting(c);
    const header = c.req.header('authorization');
    if (header === undefined) return this.#viaCookie(c);
    const token = this.#cached(header);
    if (token !== undefined && token.userId !== null) {
      if (this.#now() >= token.expiresAtMs) throw this.#expired(header);
      const now = performance.now();
      const state = this.revocations.trusted(token.id, now);
      if (state !== undefined) {
        if (!state.live) throw unauthenticated('revoked');
        const entry = this.#userRows.peek(token.userId);
        if (entry !== undefined && now - entry.at < this.#userCacheMs) {
          c.set('accessToken', token);
          return this.#hydrate(entry.row, token);
        }
      }
    }
    return this.#userSlow(c, header);
  };

  /**
   * The token alone, for the `client` middleware (client_credentials tokens have no user): the
   * same checks, bearer header only.
   */
  token(c: Context): VerifiedToken | Promise<VerifiedToken> {
    if (this.#actingAs) {
      c.set('accessToken', this.#actingAs.token);
      return this.#actingAs.token;
    }
    const header = c.req.header('authorization');
    if (header === undefined) throw unauthenticated('missing');
    const token = this.#cached(header);
    if (token !== undefined) {
      if (this.#now() >= token.expiresAtMs) throw this.#expired(header);
      const state = this.revocations.trusted(token.id, performance.now());
      if (state !== undefined) {
        if (!state.live) throw unauthenticated('revoked');
        c.set('accessToken', token);
        return token;
      }
    }
    if (bearerToken(header) === undefined) throw unauthenticated('missing');
    return this.#verify(header).then((verified) => {
      c.set('accessToken', verified);
      return verified;
    });
  }

  async #userSlow(c: Context, header: string): Promise<User> {
    if (bearerToken(header) === undefined) return this.#viaCookie(c);
    const token = await this.#verify(header);
    if (token.userId === null) throw unauthenticated('no_user');
    const entry = this.#userRows.peek(token.userId);
    let row = entry !== undefined && performance.now() - entry.at < this.#userCacheMs ? entry.row : undefined;
    row ??= await this.#loadUser(token.userId);
    if (row === undefined) throw unauthenticated('no_user');
    c.set('accessToken', token);
    return this.#hydrate(row, token);
  }

  /** Signature, issuer, type and expiry (once per token), then the revocation check. */
  async #verify(header: string): Promise<VerifiedToken> {
    let token = this.#cached(header);
    if (token === undefined) {
      const raw = bearerToken(header);
      if (!raw) throw unauthenticated('invalid');
      try {
        token = toVerifiedToken(await this.deps.verifier.verify(raw));
      } catch (err) {
        if (err instanceof OAuthError)
          throw unauthenticated(err.description === EXPIRED ? 'expired' : 'invalid');
        throw err;
      }
      if (this.#admit(header)) this.verified.set(cacheKey(header), { header, token });
    }
    if (this.#now() >= token.expiresAtMs) throw this.#expired(header);
    const now = performance.now();
    const state = this.revocations.trusted(token.id, now) ?? (await this.#lookup(token, now));
    if (!state.live) throw unauthenticated('revoked');
    return token;
  }

  /** The primary-key lookup of the token row with its client (DESIGN decision 3). */
  async #lookup(token: VerifiedToken, now: number): Promise<TokenState> {
    const seen = this.revocations.peek(token.id);
    const row = await this.deps.store.accessTokens.findWithClient(token.id);
    const live =
      row !== undefined &&
      !row.revoked &&
      !row.client.revoked &&
      row.clientId === token.clientId &&
      row.userId === token.userId;
    return this.revocations.settle(token.id, seen, { live, clientId: token.clientId, checkedAt: now });
  }

  async #loadUser(id: number): Promise<UserRow | undefined> {
    const row = await this.deps.db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
    if (row) this.#userRows.set(id, { row, at: performance.now() });
    return row;
  }

  /** A fresh model per request: handlers may change it, and it carries this request's token. */
  #hydrate(row: UserRow, token: VerifiedToken): User {
    // The model class is looked up in the container once; `Users.hydrate` would on every request.
    if (this.#model === undefined) {
      const user = this.deps.users.hydrate(row);
      this.#model = { cls: user.constructor as UserModel, container: user.container };
      return withToken(user, token);
    }
    return withToken(new this.#model.cls(this.#model.container, row), token);
  }

  /**
   * The verified token for exactly this Authorization header. Hashing a fresh 800-character string
   * for a `Map` costs about a microsecond — more than the rest of the check — so the map is keyed
   * by the signature's tail and the whole header is compared on a hit (a memcmp).
   */
  #cached(header: string): VerifiedToken | undefined {
    const entry = this.verified.get(cacheKey(header));
    return entry !== undefined && entry.header === header ? entry.token : undefined;
  }

  /**
   * TinyLFU's doorkeeper: a token is cached the second time it is verified, not the first. A
   * client that sends a new token with every request would otherwise churn the whole cache (and
   * the old generation of the heap) for nothing; a reused token pays one extra verification.
   * A fingerprint table of the signature's last characters: no allocation, false positives only
   * admit early.
   */
  #admit(header: string): boolean {
    let h = 0x811c9dc5;
    for (let i = Math.max(0, header.length - 16); i < header.length; i++)
      h = Math.imul(h ^ header.charCodeAt(i), 0x01000193);
    const slot = (h >>> 0) & (this.#doorkeeper.length - 1);
    const fingerprint = (Math.imul(h, 0x9e3779b1) | 1) >>> 0;
    if (this.#doorkeeper[slot] === fingerprint) return true;
    this.#doorkeeper[slot] = fingerprint;
    return false;
  }

  #expired(header: string) {
    const key = cacheKey(header);
    if (this.verified.peek(key)?.header === header) this.verified.delete(key);
    return unauthenticated('expired');
  }

  /** The app_token cookie instead of a bearer token (see `AppTokenAuthenticator`). */
  async #viaCookie(c: Context): Promise<User> {
    const { user, row, token } = await this.#cookie.authenticate(c);
    c.set('accessToken', token);
    if (user) return withToken(user, token);
    return this.#hydrate(row, token);
  }

  #acting(c: Context): User {
    const { user, token } = this.#actingAs!;
    if (!user) throw unauthenticated('no_user');
    c.set('accessToken', token);
    return withToken(user, token);
  }

  /** `actingAs()`: every request authenticates as `user` with `scopes`, no token needed. */
  actAs(user: User | undefined, token: VerifiedToken): void {
    this.#actingAs = { user, token };
  }

  /** Back to real tokens. */
  stopActing(): void {
    this.#actingAs = undefined;
  }

  /** A token this instance stored: live. */
  tokenCreated(tokenId: string, clientId: string): void {
    this.revocations.created(tokenId, clientId, performance.now());
  }

  tokenRevoked(tokenId: string): void {
    this.revocations.revoke(tokenId, performance.now());
  }

  clientRevoked(clientId: string): void {
    this.revocations.revokeClient(clientId, performance.now());
  }

  /** The next request of this user reads the row again (after changing it elsewhere). */
  forgetUser(userId: number): void {
    this.#userRows.delete(userId);
  }

  /** Forgets every cached state and row (invalidation messages may have been missed). */
  flush(): void {
    this.revocations.clear();
    this.#userRows.clear();
  }
}

/** RFC 6750 §2.1 `Bearer b64token` (the scheme is case-insensitive, RFC 7235 §2.1); undefined for anything else. */
export function bearerToken(header: string | undefined): string | undefined {
  if (header === undefined) return undefined;
  if (header.startsWith('Bearer ')) return header.slice(7).trim();
  if (
    header.length >= 6 &&
    header.slice(0, 6).toLowerCase() === 'bearer' &&
    (header.length === 6 || header[6] === ' ')
  )
    return header.slice(7).trim();
  return undefined;
}

/** The last 40 characters: inside a JWT's signature, random enough to spread the keys. */
function cacheKey(header: string): string {
  return header.length > 40 ? header.slice(-40) : header;
}

function withToken(user: User, token: VerifiedToken): User {
  const model = user as User & { withAccessToken?: (t: VerifiedToken['current']) => unknown };
  if (typeof model.withAccessToken === 'function') model.withAccessToken(token.current);
  return user;
}
