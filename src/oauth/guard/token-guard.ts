import type { Context } from 'hono';
import type { User } from '../../auth/user.js';
import { SystemClock } from '../../core/clock.js';
import { type InvalidTokenReason, OAuthError } from '../errors.js';
import { accessTokenOf, dpopToken } from './bearer.js';
import { asDpopChallenge, DpopBinding } from './dpop-binding.js';
import { meantForHere } from './resource-audience.js';
import type { TokenGuardDeps, TokenGuardOptions } from './token-guard-deps.js';
import { bindsTo, RevocationCache } from './token-states.js';
import { bindToken, UserResolver } from './user-resolver.js';
import type { VerifiedToken } from './verified-token.js';
import { type VerifiedEntry, VerifiedTokenCache } from './verified-tokens.js';

export type { TokenGuardDeps, TokenGuardOptions } from './token-guard-deps.js';

const refuse = (reason: InvalidTokenReason) => OAuthError.invalidToken({ reason });

/**
 * The `api` guard with the token driver (spec "Authentication" 1, RFC 6750 §2.1): header → token
 * → revocation → audience → user, over a verified-token cache, a revocation cache and a user resolver; the
 * `app_token` cookie when there is no Authorization header. A reused token is a cache hit and
 * answers synchronously. Every refusal is an `OAuthError` (`invalid_token` with its reason).
 */
export class TokenGuard {
  readonly verified: VerifiedTokenCache;
  readonly revocations: RevocationCache;
  readonly users: UserResolver;
  /** The injected clock in milliseconds; the system clock without a `Date` per request. */
  readonly #now: () => number;
  readonly #dpop: DpopBinding;
  /** Set by `actingAs()` of `tollgate/testing`: every request authenticates as this, no token needed. */
  actingAs: { user: User | undefined; token: VerifiedToken } | undefined;

  constructor(
    private readonly deps: TokenGuardDeps,
    options: TokenGuardOptions = {},
  ) {
    this.verified = new VerifiedTokenCache(options.maxVerifiedTokens);
    this.revocations = new RevocationCache(deps.store.accessTokens, options);
    this.users = new UserResolver(deps.users, options);
    this.#dpop = new DpopBinding(deps.dpop);
    this.#now = deps.clock instanceof SystemClock ? Date.now : () => deps.clock.now().getTime();
  }

  /** The `api` guard: the user of the request's token, or a thrown 401 `OAuthError`. */
  user = (c: Context): User | Promise<User> => {
    if (this.actingAs !== undefined) return this.#acting(c);
    const header = c.req.header('authorization');
    if (header === undefined) return this.#viaCookie(c);
    const entry = this.verified.get(header);
    const now = performance.now();
    const user = this.#reusable(c, entry, now) ? this.users.cached(entry, now) : undefined;
    if (user !== undefined) {
      c.set('accessToken', entry!.token);
      return user;
    }
    return this.#userOf(c, header);
  };

  /** The token alone, for the `client` middleware (client_credentials tokens have no user). */
  token(c: Context): VerifiedToken | Promise<VerifiedToken> {
    if (this.actingAs !== undefined) return this.#use(c, this.actingAs.token);
    const header = c.req.header('authorization');
    const entry = header === undefined ? undefined : this.verified.get(header);
    if (this.#reusable(c, entry, performance.now())) return this.#use(c, entry.token);
    if (accessTokenOf(header) === undefined) throw refuse('missing');
    return this.#check(c, header!).then(({ token }) => this.#use(c, token));
  }

  /**
   * The reused-token test: cached, not DPoP-bound (a proof is checked on every request), not
   * expired, live by a state still trusted, bound to its row, and meant for this resource.
   */
  #reusable(c: Context, entry: VerifiedEntry | undefined, now: number): entry is VerifiedEntry {
    if (entry === undefined || entry.token.jkt !== null || this.#now() >= entry.token.expiresAtMs)
      return false;
    const state = this.revocations.trusted(entry.token.id, now);
    return (
      state?.live === true &&
      bindsTo(state, entry.token) &&
      meantForHere(this.deps.resourceAt, c, entry.token)
    );
  }

  async #userOf(c: Context, header: string): Promise<User> {
    if (accessTokenOf(header) === undefined) return this.#viaCookie(c);
    const { token, entry } = await this.#check(c, header);
    const now = performance.now();
    const user = this.users.cached(entry, now) ?? (await this.users.resolve(token, entry, now));
    if (user === undefined) throw refuse('unknown_user');
    this.#use(c, token);
    return user;
  }

  /** Header → token (verified once, then cached) → DPoP proof → revocation → audience. */
  #check(c: Context, header: string): Promise<{ token: VerifiedToken; entry: VerifiedEntry }> {
    const dpop = dpopToken(header);
    const checked = this.#checkToken(c, header, dpop);
    return dpop === undefined ? checked : checked.catch(asDpopChallenge);
  }

  async #checkToken(
    c: Context,
    header: string,
    dpop: string | undefined,
  ): Promise<{ token: VerifiedToken; entry: VerifiedEntry }> {
    const entry = this.verified.get(header) ?? (await this.verified.verify(header, this.deps.verifier));
    const token = entry.token;
    if (this.#now() >= token.expiresAtMs) {
      this.verified.delete(header);
      throw refuse('expired');
    }
    if (token.jkt !== null || dpop !== undefined) await this.#dpop.check(c, token, dpop);
    const now = performance.now();
    const state = await this.revocations.state(token, now);
    if (!state.live) throw refuse('revoked');
    if (!bindsTo(state, token)) throw refuse('invalid');
    if (!meantForHere(this.deps.resourceAt, c, token)) throw refuse('audience');
    return { token, entry };
  }

  async #viaCookie(c: Context): Promise<User> {
    const { user, token } = await this.deps.cookie.authenticate(c);
    return this.#signIn(c, user, token);
  }

  #acting(c: Context): User {
    const { user, token } = this.actingAs!;
    if (!user) throw refuse('unknown_user');
    return this.#signIn(c, user, token);
  }

  #signIn(c: Context, user: User, token: VerifiedToken): User {
    this.#use(c, token);
    return bindToken(user, token);
  }

  #use(c: Context, token: VerifiedToken): VerifiedToken {
    c.set('accessToken', token);
    return token;
  }

  /** Forgets every cached state and user (invalidation messages may have been missed, users changed). */
  flush(): void {
    this.revocations.clear();
    this.users.clear();
    this.verified.forgetUsers();
  }
}
