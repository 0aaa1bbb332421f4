import type { Context } from 'hono';
import type { User } from '../../auth/user.js';
import { type Clock, SystemClock } from '../../core/clock.js';
import type { DpopProofs } from '../dpop/dpop-proofs.js';
import { ProofRefused } from '../dpop/proof.js';
import { type InvalidTokenReason, OAuthError } from '../errors.js';
import type { AccessTokenVerifier } from '../jwt/access-token-verifier.js';
import type { OAuthStore } from '../stores/contracts.js';
import type { AppTokenAuthenticator } from './app-token-authenticator.js';
import { accessTokenOf, dpopToken } from './bearer.js';
import { bindsTo, RevocationCache, type RevocationOptions } from './token-states.js';
import { bindToken, type UserFinder, UserResolver, type UserResolverOptions } from './user-resolver.js';
import type { VerifiedToken } from './verified-token.js';
import { type VerifiedEntry, VerifiedTokenCache } from './verified-tokens.js';

/** The caches' sizes and lifetimes; each part documents its own defaults. */
export type TokenGuardOptions = RevocationOptions & UserResolverOptions & { maxVerifiedTokens?: number };

export interface TokenGuardDeps {
  verifier: AccessTokenVerifier;
  store: OAuthStore;
  /** The users provider (`Users`): the guard only calls `find(id)`. */
  users: UserFinder;
  clock: Clock;
  /** The app_token cookie, for requests without an Authorization header. */
  cookie: AppTokenAuthenticator;
  /**
   * The identifier of the configured protected resource a request path belongs to
   * (`ProtectedResources.forPath`); absent: no resource checks.
   */
  resourceAt?: (path: string) => string | undefined;
  /** RFC 9449 proofs for `Authorization: DPoP` requests; absent: DPoP-bound tokens are refused. */
  dpop?: DpopProofs;
}

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
  /** Set by `actingAs()` of `tollgate/testing`: every request authenticates as this, no token needed. */
  actingAs: { user: User | undefined; token: VerifiedToken } | undefined;

  constructor(
    private readonly deps: TokenGuardDeps,
    options: TokenGuardOptions = {},
  ) {
    this.verified = new VerifiedTokenCache(options.maxVerifiedTokens);
    this.revocations = new RevocationCache(deps.store.accessTokens, options);
    this.users = new UserResolver(deps.users, options);
    this.#now = deps.clock instanceof SystemClock ? Date.now : () => deps.clock.now().getTime();
  }

  /** The `api` guard: the user of the request's token, or a thrown 401 `OAuthError`. */
  user = (c: Context): User | Promise<User> => {
    if (this.actingAs !== undefined) return this.#acting(c);
    const header = c.req.header('authorization');
    if (header === undefined) return this.#viaCookie(c);
    const entry = this.verified.get(header);
    // A DPoP-bound token needs its proof checked on every request: never the synchronous path.
    if (entry !== undefined && entry.token.jkt === null) {
      const now = performance.now();
      const user = this.users.cached(entry, now);
      if (user !== undefined && this.#stillGood(entry.token, now) && this.#meantForHere(c, entry.token)) {
        c.set('accessToken', entry.token);
        return user;
      }
    }
    return this.#userOf(c, header);
  };

  /** The token alone, for the `client` middleware (client_credentials tokens have no user). */
  token(c: Context): VerifiedToken | Promise<VerifiedToken> {
    if (this.actingAs !== undefined) return this.#use(c, this.actingAs.token);
    const header = c.req.header('authorization');
    const entry = header === undefined ? undefined : this.verified.get(header);
    if (
      entry !== undefined &&
      entry.token.jkt === null &&
      this.#stillGood(entry.token, performance.now()) &&
      this.#meantForHere(c, entry.token)
    )
      return this.#use(c, entry.token);
    if (accessTokenOf(header) === undefined) throw refuse('missing');
    return this.#check(c, header!).then(({ token }) => this.#use(c, token));
  }

  /**
   * RFC 8707 / RFC 9068 §4: a token issued for a resource is refused under another configured
   * resource. A token issued for none (`aud` is its client) passes, as before resource indicators;
   * so does any token on a path no configured resource holds. One string comparison when cached.
   */
  #meantForHere(c: Context, token: VerifiedToken): boolean {
    if (token.resource === null || this.deps.resourceAt === undefined) return true;
    const here = this.deps.resourceAt(c.req.path);
    return here === undefined || here === token.resource;
  }

  /** Not expired, live by a state still trusted, and bound to its row: the reused-token test. */
  #stillGood(token: VerifiedToken, now: number): boolean {
    if (this.#now() >= token.expiresAtMs) return false;
    const state = this.revocations.trusted(token.id, now);
    return state?.live === true && bindsTo(state, token);
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

  /** Header → token (verified once, then cached) → revocation (cached state or the row). */
  async #check(c: Context, header: string): Promise<{ token: VerifiedToken; entry: VerifiedEntry }> {
    const dpop = dpopToken(header);
    if (dpop === undefined) return this.#checkToken(c, header, undefined);
    try {
      return await this.#checkToken(c, header, dpop);
    } catch (err) {
      // RFC 9449 §7.1: a request with the DPoP scheme is answered with a DPoP challenge.
      if (err instanceof OAuthError && err.code === 'invalid_token' && err.reason !== 'proof')
        throw OAuthError.invalidToken({ reason: err.reason ?? 'invalid', detail: err.detail, dpop: true });
      throw err;
    }
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
    if (token.jkt !== null || dpop !== undefined) await this.#proofFor(c, token, dpop);
    const now = performance.now();
    const state = await this.revocations.state(token, now);
    if (!state.live) throw refuse('revoked');
    if (!bindsTo(state, token)) throw refuse('invalid');
    if (!this.#meantForHere(c, token)) throw refuse('audience');
    return { token, entry };
  }

  /**
   * RFC 9449 §7: a bound token comes with the DPoP scheme and a proof for this request by its key
   * (`ath` = its hash); a bearer token under the DPoP scheme, or a bound one as Bearer, is refused.
   */
  async #proofFor(c: Context, token: VerifiedToken, dpop: string | undefined): Promise<void> {
    if (dpop === undefined) throw refuse('bound');
    if (token.jkt === null || this.deps.dpop === undefined) throw refuse('invalid');
    let jkt: string;
    try {
      jkt = await this.deps.dpop.check(c.req.header('dpop'), {
        method: c.req.method,
        url: c.req.url,
        accessToken: dpop,
      });
    } catch (err) {
      if (err instanceof ProofRefused)
        throw OAuthError.invalidToken({ reason: 'proof', detail: err.message });
      throw err;
    }
    if (jkt !== token.jkt)
      throw OAuthError.invalidToken({ reason: 'proof', detail: 'the proof key is not the token key' });
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
