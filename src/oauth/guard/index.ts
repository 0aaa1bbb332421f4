export { actingAs, actingAsClient, stopActing } from './acting-as.js';
export { type AppTokenClaims, AppTokenCookie } from './app-token.js';
export { AppTokenAuthenticator, type CookieAuthentication } from './app-token-authenticator.js';
export {
  INVALID_SCOPES,
  insufficientScope,
  type TokenFailure,
  UNAUTHENTICATED,
  unauthenticated,
} from './challenge.js';
export { currentAccessToken } from './context.js';
export { createFreshApiToken } from './fresh-api-token.js';
export { LruCache } from './lru.js';
export { type ApiGuardOptions, apiGuardProvider, bootApiGuard, registerApiGuard } from './register.js';
export { RevocationBroadcast, type RevocationMessage } from './revocation-broadcast.js';
export {
  checkClientCredentials,
  checkForAnyScope,
  checkScopes,
  type KnownScopes,
} from './scope-middleware.js';
export { bearerToken, TokenGuard, type TokenGuardDeps, type TokenGuardOptions } from './token-guard.js';
export { RevocationCache, type TokenState } from './token-states.js';
export {
  hasAllScopes,
  hasAnyScope,
  toVerifiedToken,
  transientToken,
  type VerifiedToken,
} from './verified-token.js';
