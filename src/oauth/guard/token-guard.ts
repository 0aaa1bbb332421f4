import type { Context } from 'hono';
import type { User } from '../../auth/user.js';
import { millis } from '../../core/clock.js';
import { requestHeader } from '../../http/request-header.js';
import { type InvalidTokenReason, OAuthError } from '../errors.js';
import { accessTokenOf, dpopToken } from './bearer.js';
import { asDpopChallenge, DpopBinding } from './dpop-binding.js';
import { touchToken } from './last-used.js';
import { meantForHere } from './resource-audience.js';
import type { TokenGuardDeps, TokenGuardOptions } from './token-guard-deps.js';
import { bindsTo, RevocationCache, type TokenState } from './token-states.js';
import { bindToken, UserResolver } from './user-resolver.js';
import { VerificationOutcomes } from './verification-outcomes.js';
import type { VerifiedToken } from './verified-token.js';
import { type VerifiedEntry, VerifiedTokenCache } from './verified-tokens.js';

export type { TokenGuardDeps, TokenGuardOptions } from './token-guard-deps.js';

const refuse = (reason: InvalidTokenReason) => OAuthError.invalidToken({ reason });

/**
 * The `api` guard with the token driver (spec "Authentication" 1, RFC 6750 §2.1): header → token
 * → revocation → audience → user, over a verified-token cache, a revocation cache and a user
 * resolver; else an API key (`ApiKeyAuthenticator`) or the `app_token` cookie. A reused token is
 * a cache hit and answers synchronously; so does a new token when its revocation state and user
 * are cached (nothing to read). Every refusal is an `OAuthError` (`invalid_token`).
 */
export class TokenGuard {
  readonly verified: VerifiedTokenCache;
  readonly revocations: RevocationCache;
  readonly users: UserResolver;
  /** How each credential check ended (`tollgate_oauth_token_verifications_total`). */
  readonly outcomes = new VerificationOutcomes();
  /** The injected clock in milliseconds (`millis`). */
  readonly #now: () => number;
  readonly #dpop: DpopBinding;
  /** Set by `actingAs()` of `tollgate/testing`: every request authenticates as this, no token needed. */
  actingAs: { user: User | undefined; token: VerifiedToken } | undefined;

  constructor(
    readonly deps: TokenGuardDeps,
    options: TokenGuardOptions = {},
  ) {
    this.verified = new VerifiedTokenCache(options.maxVerifiedTokens);
    this.revocations = new RevocationCache(deps.store.accessTokens, options);
    this.users = new UserResolver(deps.users, options);
    this.#dpop = new DpopBinding(deps.dpop);
    this.#now = millis(deps.clock);
  }

  /**
   * The `api` guard: the user of the request's token, or a thrown 401 `OAuthError`. `header` is
   * the request's Authorization header unless given (a token sent in a form, RFC 6750 §2.2).
   */
  user = (c: Context, header = requestHeader(c, 'authorization')): User | Promise<User> => {
    if (this.actingAs !== undefined) return this.#acting(c);
    if (header === undefined) return this.outcomes.settle(this.#otherCredential(c, header));
    const entry = this.verified.get(header);
    const now = performance.now();
    const user = this.#reusable(c, entry, now) ? this.users.cached(entry, now) : undefined;
    if (user === undefined) return this.#userOf(c, header, entry);
    c.set('accessToken', touchToken(this.deps.lastUsed, entry!, now));
    this.outcomes.valid++;
    return user;
  };

  /** The token alone, for the `client` middleware (client_credentials tokens have no user). */
  token(c: Context): VerifiedToken | Promise<VerifiedToken> {
    if (this.actingAs !== undefined) return this.#use(c, this.actingAs.token);
    const header = requestHeader(c, 'authorization');
    const entry = header === undefined ? undefined : this.verified.get(header);
    const now = performance.now();
    if (this.#reusable(c, entry, now)) {
      this.outcomes.valid++;
      return this.#use(c, touchToken(this.deps.lastUsed, entry, now));
    }
    if (accessTokenOf(header) === undefined) return this.outcomes.refuse(refuse('missing'));
    return this.outcomes.settle(this.#check(c, header!, entry).then(({ token }) => this.#use(c, token)));
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

  /** A token the cache cannot answer for alone, counted in `outcomes`: thrown or rejected if refused. */
  #userOf(c: Context, header: string, cached: VerifiedEntry | undefined): User | Promise<User> {
    if (accessTokenOf(header) === undefined || this.deps.apiKeys?.credential(c, header) !== undefined)
      return this.outcomes.settle(this.#otherCredential(c, header));
    if (dpopToken(header) !== undefined)
      return this.outcomes.settle(this.#check(c, header, cached).then((entry) => this.#userFor(c, entry)));
    try {
      const entry = this.#checkToken(c, header, undefined, cached);
      if (entry instanceof Promise)
        return this.outcomes.settle(entry.then((checked) => this.#userFor(c, checked)));
      const user = this.#userFor(c, entry);
      if (user instanceof Promise) return this.outcomes.settle(user);
      this.outcomes.valid++;
      return user;
    } catch (err) {
      return this.outcomes.refuse(err);
    }
  }

  /** The checked token's user: its entry's, else the resolver's (a promise only when it reads). */
  #userFor(c: Context, entry: VerifiedEntry): User | Promise<User> {
    const now = performance.now();
    const user = this.users.cached(entry, now) ?? this.users.resolve(entry.token, entry, now);
    if (user instanceof Promise) return user.then((found) => this.#found(c, entry, found));
    return this.#found(c, entry, user);
  }

  #found(c: Context, entry: VerifiedEntry, user: User | undefined): User {
    if (user === undefined) throw refuse('unknown_user');
    this.#use(c, entry.token);
    return user;
  }

  /** Header → token (verified once, then cached) → DPoP proof → revocation → audience, as a promise. */
  async #check(c: Context, header: string, cached: VerifiedEntry | undefined): Promise<VerifiedEntry> {
    const dpop = dpopToken(header);
    try {
      return await this.#checkToken(c, header, dpop, cached);
    } catch (err) {
      if (dpop === undefined) throw err;
      return asDpopChallenge(err);
    }
  }

  /** The same, synchronously while nothing needs waiting for (a DPoP proof, a row, a key). */
  #checkToken(
    c: Context,
    header: string,
    dpop: string | undefined,
    cached: VerifiedEntry | undefined,
  ): VerifiedEntry | Promise<VerifiedEntry> {
    const entry = cached ?? this.verified.verify(header, this.deps.verifier);
    if (entry instanceof Promise)
      return entry.then((verified) => this.#checkEntry(c, header, dpop, verified));
    return this.#checkEntry(c, header, dpop, entry);
  }

  #checkEntry(
    c: Context,
    header: string,
    dpop: string | undefined,
    entry: VerifiedEntry,
  ): VerifiedEntry | Promise<VerifiedEntry> {
    const token = entry.token;
    if (this.#now() >= token.expiresAtMs) {
      this.verified.delete(header);
      throw refuse('expired');
    }
    if (token.jkt !== null || dpop !== undefined)
      return this.#dpop.check(c, token, dpop).then(() => this.#checkState(c, entry));
    return this.#checkState(c, entry);
  }

  #checkState(c: Context, entry: VerifiedEntry): VerifiedEntry | Promise<VerifiedEntry> {
    const now = performance.now();
    const state = this.revocations.state(entry.token, now);
    if (state instanceof Promise) return state.then((read) => this.#admit(c, entry, read, now));
    return this.#admit(c, entry, state, now);
  }

  #admit(c: Context, entry: VerifiedEntry, state: TokenState, now: number): VerifiedEntry {
    const token = entry.token;
    if (!state.live) throw refuse('revoked');
    if (!bindsTo(state, token)) throw refuse('invalid');
    if (!meantForHere(this.deps.resourceAt, c, token)) throw refuse('audience');
    touchToken(this.deps.lastUsed, entry, now);
    return entry;
  }

  /** Not an access token: an API key (`Bearer tg_…` or the configured header), else the app_token cookie. */
  async #otherCredential(c: Context, header: string | undefined): Promise<User> {
    const viaKey = this.deps.apiKeys?.signIn(c, header, this.users);
    const { user, token } = await (viaKey ?? this.deps.cookie.authenticate(c));
    return this.#signIn(c, user, token);
  }

  #acting(c: Context): User {
    if (!this.actingAs!.user) throw refuse('unknown_user');
    return this.#signIn(c, this.actingAs!.user, this.actingAs!.token);
  }

  #signIn(c: Context, user: User, token: VerifiedToken): User {
    return bindToken(user, this.#use(c, token));
  }

  #use(c: Context, token: VerifiedToken): VerifiedToken {
    c.set('accessToken', token);
    return token;
  }

  /** Forgets every cached state and user (invalidation messages may have been missed, users changed). */
  flush(): void {
    this.revocations.clear();
    this.deps.apiKeys?.clear();
    this.users.clear();
    this.verified.forgetUsers();
  }
}
