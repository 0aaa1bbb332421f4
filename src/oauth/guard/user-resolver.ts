import type { User } from '../../auth/user.js';
import { LruCache } from '../../core/lru.js';
import type { VerifiedToken } from './verified-token.js';
import type { VerifiedEntry } from './verified-tokens.js';

/** How the guard finds a user: the users provider's `find` (`Users` fits). */
export interface UserFinder {
  find(id: number): Promise<User | undefined>;
}

export interface UserResolverOptions {
  /** How long a token's user model is reused before `users.find` runs again. Default 1,000 ms. */
  userCacheMs?: number;
  /** Tokens whose models are kept. Default 10,000. */
  maxVerifiedTokens?: number;
}

interface Loaded {
  readonly user: Promise<User | undefined>;
  readonly at: number;
  /** The model once `user` resolved to one: later requests take it without waiting. */
  found?: User;
}

/**
 * The user a token belongs to, through the users provider (`users.find(id)`), as a model bound to
 * that token (`user.token()`, `tokenCan()`). A model is reused by the requests of one stored token
 * for `ttlMs`, never shared between tokens: two tokens of one user with different scopes each get
 * their own. Concurrent first requests of a token share one `find`.
 */
export class UserResolver {
  readonly #byToken: LruCache<string, Loaded>;
  readonly ttlMs: number;

  constructor(
    private readonly users: UserFinder,
    options: UserResolverOptions = {},
  ) {
    this.#byToken = new LruCache(options.maxVerifiedTokens ?? 10_000);
    this.ttlMs = options.userCacheMs ?? 1_000;
  }

  /** The entry's model while it is fresh: the reused-token path, synchronous. */
  cached(entry: VerifiedEntry, now: number): User | undefined {
    return entry.user !== undefined && now - entry.userAt < this.ttlMs ? entry.user : undefined;
  }

  /**
   * The token's user, loaded once per stored token while fresh; kept on `entry` for its next
   * requests. Synchronous once the load has found it (a new token of a stored token seen before).
   */
  resolve(
    token: VerifiedToken,
    entry: VerifiedEntry | undefined,
    now: number,
  ): User | undefined | Promise<User | undefined> {
    if (token.userId === null) return undefined;
    let loaded = this.#byToken.get(token.id);
    if (loaded === undefined || now - loaded.at >= this.ttlMs) {
      const fresh: Loaded = { user: this.#load(token.userId, token), at: now };
      fresh.user.then((user) => (fresh.found = user), noop);
      this.#byToken.set(token.id, fresh);
      loaded = fresh;
    }
    if (loaded.found !== undefined) return keep(entry, loaded, loaded.found);
    const pending = loaded;
    return pending.user.then((user) => (user === undefined ? undefined : keep(entry, pending, user)));
  }

  async #load(id: number, token: VerifiedToken): Promise<User | undefined> {
    try {
      const user = await this.users.find(id);
      if (user !== undefined) return bindToken(user, token);
    } catch (err) {
      this.#byToken.delete(token.id);
      throw err;
    }
    this.#byToken.delete(token.id);
    return undefined;
  }

  /** The next request of every token loads its user again (after a change to users). */
  clear(): void {
    this.#byToken.clear();
  }
}

const noop = () => {};

function keep(entry: VerifiedEntry | undefined, loaded: Loaded, user: User): User {
  if (entry !== undefined) {
    entry.user = user;
    entry.userAt = loaded.at;
  }
  return user;
}

/** Hands the model the request's token when it has `HasApiTokens` (`user.token()`, `tokenCan`). */
export function bindToken(user: User, token: VerifiedToken): User {
  const model = user as User & { withAccessToken?: (t: VerifiedToken['current']) => unknown };
  if (typeof model.withAccessToken === 'function') model.withAccessToken(token.current);
  return user;
}
