export {
  type AuthorizationFailure,
  type AuthorizationRequest,
  errorRedirectTarget,
  type ResponseType,
  validateAuthorizationRequest,
} from './authorization/authorization-request.js';
export { AuthorizationService } from './authorization/authorization-service.js';
export { Clients, type CreatedClient, type NewClientInput, serializeClient } from './clients/clients.js';
export type { OAuthConfig, ProtectedResourceConfig, SigningAlgorithm } from './config.js';
export {
  INVALID_SCOPES,
  type InvalidTokenReason,
  OAuthError,
  type OAuthErrorCode,
  type OAuthErrorOptions,
  oauthErrorStatus,
  UNAUTHENTICATED,
} from './errors.js';
export { AccessTokenCreated, AccessTokenRevoked, ClientRevoked, RefreshTokenCreated } from './events.js';
export { authorizationCodeGrant } from './grants/authorization-code.js';
export { ClientAuthenticator } from './grants/client-authenticator.js';
export { clientCredentialsGrant } from './grants/client-credentials.js';
export {
  defineGrant,
  type Grant,
  type GrantParameters,
  type GrantParams,
  type GrantRequest,
  type GrantServices,
  type TokenRequest,
  type UserCredentials,
} from './grants/grant.js';
export { passwordGrant } from './grants/password.js';
export { refreshTokenGrant } from './grants/refresh-token.js';
export { defaultGrants, GrantRegistry } from './grants/registry.js';
export {
  TokenEndpoint,
  type TokenEndpointParts,
  type TokenExchange,
  type TokenInput,
  type TokenStep,
  tokenPipeline,
} from './grants/token-endpoint.js';
export {
  type ApiGuardOptions,
  type AppTokenClaims,
  AppTokenCookie,
  apiGuardProvider,
  bearerToken,
  bootApiGuard,
  checkClientCredentials,
  checkForAnyScope,
  checkScopes,
  createFreshApiToken,
  currentAccessToken,
  DEFAULT_RECHECK_MS,
  hasAllScopes,
  hasAnyScope,
  RevocationBroadcast,
  RevocationCache,
  registerApiGuard,
  TokenGuard,
  type TokenGuardOptions,
  transientToken,
  type VerifiedToken,
} from './guard/index.js';
export {
  ApprovalDecisionFields,
  type ApprovalView,
  ApprovalViewKey,
  type ApprovalViewProps,
  defaultApprovalView,
} from './http/approval-view.js';
export { ApprovalController, PENDING_AUTHORIZATION } from './http/authorization-controller.js';
export { AuthorizedTokensController } from './http/authorized-tokens-controller.js';
export { ClientsController } from './http/clients-controller.js';
export { MetadataController } from './http/metadata-controller.js';
export { PersonalAccessTokensController } from './http/personal-access-tokens-controller.js';
export { ProtectedResourceController } from './http/protected-resource-controller.js';
export { oauthErrorResponse } from './http/respond.js';
export { RevocationController } from './http/revocation-controller.js';
export { ScopesController } from './http/scopes-controller.js';
export { TokenController } from './http/token-controller.js';
export { type InstallResult, installOAuth } from './install.js';
export { AccessTokenSigner, type AccessTokenSubject, issuerOf } from './jwt/access-token-signer.js';
export { AccessTokenVerifier } from './jwt/access-token-verifier.js';
export { ACCESS_TOKEN_TYP, type AccessTokenClaims } from './jwt/claims.js';
export {
  generateKeyPair,
  installKeys,
  keyPaths,
  keysExist,
  type PemKeyPair,
  readKeys,
  writeKeys,
} from './keys/key-files.js';
export { type PreviousKey, previousKeysPath, readPreviousKeys } from './keys/previous-keys.js';
export { type PruneResult, pruneKeys, type RotationResult, rotateKeys } from './keys/rotation.js';
export { type LoadedKeys, SigningKeys, type VerificationKey } from './keys/signing-keys.js';
export { authorizationServerMetadata } from './metadata.js';
export { type ApiTokensUser, type CurrentAccessToken, HasApiTokens } from './personal/has-api-tokens.js';
export {
  PersonalAccessClientMissing,
  type PersonalAccessTokenResult,
  PersonalAccessTokens,
  serializeToken,
} from './personal/personal-access-tokens.js';
export {
  metadataUrlFor,
  PROTECTED_RESOURCE_WELL_KNOWN,
  type ProtectedResource,
  type ProtectedResourceMetadata,
  ProtectedResources,
} from './protected-resources.js';
export { bindOAuthServices, type OAuthOptions, oauthProvider } from './provider.js';
export {
  type AccessTokenRecord,
  type AccessTokenWithClient,
  type AuthCodeRecord,
  type ClientRecord,
  clientHandlesGrant,
  isFirstPartyClient,
  isPublicClient,
  type RefreshTokenRecord,
} from './records.js';
export { registerOAuthRoutes } from './routes.js';
export {
  isValidRedirect,
  redirectListProblem,
  redirectProblem,
  redirectUriMatches,
  registeredRedirects,
} from './rules/check-redirect-uri.js';
export { ALL_SCOPES, type Scope, Scopes, scopesAllow } from './scopes.js';
export { hashSecret, randomId, randomSecret, safeEqual, secretMatches } from './secrets.js';
export type {
  AccessTokenStore,
  AuthCodeStore,
  ClientStore,
  NewClient,
  OAuthStore,
  PurgeCounts,
  PurgeOptions,
  RefreshTokenStore,
} from './stores/contracts.js';
export { OAuthStoreKey } from './stores/contracts.js';
export { KyselyOAuthStore } from './stores/kysely-store.js';
export type {
  OAuthAccessTokenRow,
  OAuthAccessTokensTable,
  OAuthAuthCodeRow,
  OAuthAuthCodesTable,
  OAuthClientRow,
  OAuthClientsTable,
  OAuthRefreshTokenRow,
  OAuthRefreshTokensTable,
} from './tables.js';
export { type IntrospectionResponse, TokenInspector } from './tokens/token-inspector.js';
export {
  type GrantWrites,
  type IssuedTokens,
  type IssueOptions,
  type IssuingTransaction,
  TokenIssuer,
  type TokenResponse,
  toTokenResponse,
} from './tokens/token-issuer.js';
export { TokenRevoker } from './tokens/token-revoker.js';
