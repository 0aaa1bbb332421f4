import type { Clock } from '../../core/clock.js';
import type { DpopProofs } from '../dpop/dpop-proofs.js';
import type { AccessTokenVerifier } from '../jwt/access-token-verifier.js';
import type { OAuthStore } from '../stores/contracts.js';
import type { ApiKeyAuthenticator } from './api-key-authenticator.js';
import type { AppTokenAuthenticator } from './app-token-authenticator.js';
import type { LastUsed } from './last-used.js';
import type { RevocationOptions } from './token-states.js';
import type { UserFinder, UserResolverOptions } from './user-resolver.js';

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
  /** API keys (`tg_…`), the third credential kind; absent: only access tokens and the cookie. */
  apiKeys?: ApiKeyAuthenticator;
  /** Records when tokens and their clients were last used; absent: not recorded. */
  lastUsed?: LastUsed;
}
