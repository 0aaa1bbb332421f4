export { type AppTokenClaims, AppTokenCookie } from './app-token.js';
export { AppTokenAuthenticator, type CookieAuthentication } from './app-token-authenticator.js';
export { bearerToken } from './bearer.js';
export { currentAccessToken } from './context.js';
export { createFreshApiToken } from './fresh-api-token.js';
export { type ApiGuardOptions, apiGuardProvider, bootApiGuard, registerApiGuard } from './register.js';
export { RevocationBroadcast, type RevocationMessage } from './revocation-broadcast.js';
export {
  checkClientCredentials,
  checkForAnyScope,
  checkScopes,
  type KnownScopes,
} from './scope-middleware.js';
export { TokenGuard, type TokenGuardDeps, type TokenGuardOptions } from './token-guard.js';
export {
  DEFAULT_RECHECK_MS,
  RevocationCache,
  type RevocationOptions,
  type TokenState,
} from './token-states.js';
export { type UserFinder, UserResolver, type UserResolverOptions } from './user-resolver.js';
export {
  hasAllScopes,
  hasAnyScope,
  toVerifiedToken,
  transientToken,
  type VerifiedToken,
} from './verified-token.js';
export { type VerifiedEntry, VerifiedTokenCache } from './verified-tokens.js';
