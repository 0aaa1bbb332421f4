/**
 * `tollgate/oauth`: the authorization server. Register `oauthProvider()`, run `installOAuth()`
 * (or `tollgate install`) once, and protect routes with `auth:api`, `scopes:a,b` and `scope:a,b`.
 */

export { apiKeyInput } from './api-keys/api-key-input.js';
export type { CreatedApiKey, NewApiKeyInput } from './api-keys/api-keys.js';
export { ApiKeys, serializeApiKey } from './api-keys/api-keys.js';
export type { ApiKeyEnvironment } from './api-keys/key-format.js';
export { checkApiKey } from './api-keys/key-format.js';
export type { ApiKeyRecord } from './api-keys/records.js';
export type { ClientProvenance } from './clients/client-provenance.js';
export type { CreatedClient, NewClientInput } from './clients/clients.js';
export { Clients } from './clients/clients.js';
export type { OAuthConfig, ProtectedResourceConfig, SigningAlgorithm } from './config.js';
export { oauthConfig } from './config.js';
export type { OAuthErrorCode } from './errors.js';
export { OAuthError } from './errors.js';
export {
  AccessTokenCreated,
  AccessTokenRevoked,
  ApiKeyRevoked,
  ClientRevoked,
  CredentialCreated,
  RefreshTokenCreated,
} from './events.js';
export type {
  Grant,
  GrantParameters,
  GrantParams,
  GrantRequest,
  GrantServices,
  TokenRequest,
  UserCredentials,
} from './grants/grant.js';
export { defineGrant, userTokens } from './grants/grant.js';
export { CredentialSlot } from './guard/credential-slot.js';
export type { GuardStep } from './guard/guard-steps.js';
export { checkForAnyScope, checkScopes, currentAccessToken } from './guard/index.js';
export type { VerifiedToken } from './guard/verified-token.js';
export type { IssuancePolicy, OrganizationAccess, OrganizationCredentialAction } from './hooks.js';
export { OAuthHooks } from './hooks.js';
export type { ApprovalView, ApprovalViewProps } from './http/approval-view.js';
export {
  ApprovalDecisionFields,
  ApprovalViewKey,
  ClientFacts,
  ClientName,
  ClientPages,
  DocumentClientNote,
  defaultApprovalView,
} from './http/approval-view.js';
export { ClientsController } from './http/clients-controller.js';
export type { InstallResult } from './install.js';
export { installOAuth } from './install.js';
export { AccessTokenSigner } from './jwt/access-token-signer.js';
export { installKeys } from './keys/key-files.js';
export type { LogoutSettings } from './logout/client-logout.js';
export { ClientLogout } from './logout/client-logout.js';
export { OPENID_SCOPES } from './oidc/scopes.js';
export type { Claims, UserClaims } from './oidc/user-claims.js';
export { defaultUserClaims } from './oidc/user-claims.js';
export type { ApiTokensUser, CurrentAccessToken } from './personal/has-api-tokens.js';
export { HasApiTokens } from './personal/has-api-tokens.js';
export type { PersonalAccessTokenResult } from './personal/personal-access-tokens.js';
export { PersonalAccessClientMissing, PersonalAccessTokens } from './personal/personal-access-tokens.js';
export { personalTokenInput } from './personal/personal-token-input.js';
export type { OAuthOptions } from './provider.js';
export { oauthProvider } from './provider.js';
export type { AccessTokenRecord, ClientRecord } from './records.js';
export { DEVICE_CODE_GRANT } from './records.js';
export { registerOAuthRoutes } from './routes.js';
export type { Scope } from './scopes.js';
export { Scopes } from './scopes.js';
export type { OAuthStore } from './stores/contracts.js';
export { OAuthStoreKey } from './stores/contracts.js';
// Also brings the OAuth tables into `Database`, so `app.db` queries on them typecheck in an app.
export type { OAuthAccessTokenRow, OAuthClientRow } from './tables.js';
export type { AuthorizedApp } from './tokens/authorized-apps.js';
export { AuthorizedApps } from './tokens/authorized-apps.js';
export { OrganizationRevocation } from './tokens/organization-revocation.js';
export type { IssueOptions, TokenResponse } from './tokens/token-issuer.js';
export { TokenIssuer } from './tokens/token-issuer.js';
export type { TokenPurgeScheduleOptions } from './tokens/token-purge-schedule.js';
export { purgeTokensOnce, scheduleTokenPurge } from './tokens/token-purge-schedule.js';
export { TokenRevoker } from './tokens/token-revoker.js';
export type { RevokedCredentials } from './tokens/user-revocation.js';
export { UserRevocation } from './tokens/user-revocation.js';
