import { CsrfExceptions } from '../auth/csrf.js';
import { LoggedOut, SessionsEnded } from '../auth/events.js';
import { LoginThrottle } from '../auth/login-throttle.js';
import type { Container } from '../core/container.js';
import { ClockKey, LoggerKey } from '../core/keys.js';
import { DbKey } from '../database/keys.js';
import { SecurityHeaders } from '../http/security-headers.js';
import type { Application, ServiceProvider } from '../kernel/application.js';
import { clientAddress } from '../rate-limits/http.js';
import { throttle } from '../rate-limits/middleware.js';
import { RateLimits } from '../rate-limits/rate-limits.js';
import { ApiKeys } from './api-keys/api-keys.js';
import { ApiKeyStoreKey } from './api-keys/records.js';
import { auditOAuthEvents } from './audit-events.js';
import { AuthorizationService } from './authorization/authorization-service.js';
import { RequestObjects } from './authorization/request-objects.js';
import { MetadataDocumentClients } from './cimd/metadata-document-clients.js';
import { ClientKeys } from './clients/client-keys.js';
import { ClientMetadataStore } from './clients/client-metadata-store.js';
import { ClientProvenances } from './clients/client-provenance.js';
import { Clients } from './clients/clients.js';
import { LiveClients } from './clients/live-clients.js';
import { countTokensGranted } from './count-tokens.js';
import { DeviceAuthorizationEndpoint } from './device/device-authorization-endpoint.js';
import { DeviceAuthorizations } from './device/device-authorizations.js';
import { UserCodeAttempts } from './device/user-code-attempts.js';
import { DpopProofs } from './dpop/dpop-proofs.js';
import { ClientAssertions } from './grants/client-assertions.js';
import { ClientAuthenticator } from './grants/client-authenticator.js';
import type { Grant } from './grants/grant.js';
import { GrantRegistry } from './grants/registry.js';
import { TokenEndpoint } from './grants/token-endpoint.js';
import { LastUsed } from './guard/last-used.js';
import { type ApiGuardOptions, bootApiGuard, registerApiGuard } from './guard/register.js';
import { OAuthHooks } from './hooks.js';
import { type ApprovalView, ApprovalViewKey, defaultApprovalView } from './http/approval-view.js';
import { isAuthorizationRequestPost, isLogoutRequestPost } from './http/authorization-params.js';
import { throttleDocumentFetches } from './http/document-throttle.js';
import { answerPromptNone } from './http/prompt-none.js';
import { throttleTokenRequests } from './http/token-throttle.js';
import { AccessTokenSigner } from './jwt/access-token-signer.js';
import { AccessTokenVerifier } from './jwt/access-token-verifier.js';
import { keyPaths } from './keys/key-files.js';
import { previousKeysPath } from './keys/previous-keys.js';
import { SigningKeys } from './keys/signing-keys.js';
import { BackchannelDeliveries } from './logout/backchannel-deliveries.js';
import { BackchannelLogout } from './logout/backchannel-logout.js';
import { ClientLogout } from './logout/client-logout.js';
import { existingSid, sidInData } from './logout/session-sid.js';
import { oauthMigrations } from './migrations.js';
import { AccessTokenClaims } from './oidc/access-token-claims.js';
import { IdTokenSigner } from './oidc/id-token-signer.js';
import { IdTokens } from './oidc/id-tokens.js';
import { defaultUserClaims, type UserClaims, UserClaimsKey } from './oidc/user-claims.js';
import { PushedAuthorizationEndpoint } from './par/pushed-authorization-endpoint.js';
import { PushedRequests } from './par/pushed-requests.js';
import { PersonalAccessTokens } from './personal/personal-access-tokens.js';
import { ProtectedResources } from './protected-resources.js';
import { ClientRegistrations } from './registration/client-registrations.js';
import { registerOAuthRoutes } from './routes.js';
import { Scopes } from './scopes.js';
import { OAuthStoreKey } from './stores/contracts.js';
import { KyselyApiKeyStore } from './stores/kysely-api-keys.js';
import { KyselyLastUsedWriter } from './stores/kysely-last-used.js';
import { KyselyOAuthStore } from './stores/kysely-store.js';
import { AuthorizedApps } from './tokens/authorized-apps.js';
import { OrganizationRevocation } from './tokens/organization-revocation.js';
import { TokenInspector } from './tokens/token-inspector.js';
import { TokenIssuer } from './tokens/token-issuer.js';
import { TokenRevoker } from './tokens/token-revoker.js';
import { UserRevocation } from './tokens/user-revocation.js';

export interface OAuthOptions {
  /** Replaces the approval page. */
  approvalView?: ApprovalView;
  /** Extra grants for the token endpoint (`{ grantType, handle }`). */
  grants?: Grant[];
  /** Set false to declare the routes yourself (see `registerOAuthRoutes`). Default true. */
  routes?: boolean;
  /** The `api` guard's caches and Redis (see `src/oauth/guard`). */
  guard?: ApiGuardOptions;
  /** OpenID Connect: `claims(user, scopes)` maps a user to the ID token's and userinfo's claims. */
  oidc?: { claims?: UserClaims };
}

/**
 * The OAuth 2.0 server: binds its services as singletons (the signing key is imported once) and
 * declares its routes. Needs `authProvider()` registered first (the `web` group and `auth`).
 * Its tables come with its own migrations (`src/oauth/migrations`).
 */
export function oauthProvider(options: OAuthOptions = {}): ServiceProvider {
  return {
    name: 'oauth',
    migrations: [oauthMigrations],
    register(app: Application) {
      bindOAuthServices(app.container, options);
      // Pages that add a source to the application's Content-Security-Policy start from it.
      app.container.instance(SecurityHeaders, app.router.securityHeaders);
      defineOAuthLimits(app);
      app.privateFiles.push(
        keyPaths(app.config.storagePath).privateKey,
        previousKeysPath(app.config.storagePath),
      );
      // A bad protected-resource entry stops the boot with its message.
      app.container.make(ProtectedResources);
      if (options.routes !== false) registerOAuthRoutes(app.router);
      // OpenID Connect Core §3.1.2.1: an authorization request by POST comes from the client's site.
      CsrfExceptions.of(app).addRule(isAuthorizationRequestPost).addRule(isLogoutRequestPost);
      registerApiGuard(app, options.guard);
      app.onClose(() => app.container.make(DpopProofs).replay.close());
      app.onClose(() => {
        const backchannel = app.container.make(BackchannelLogout);
        backchannel.close();
        // An attempt under way finishes (or times out) before the database closes.
        return backchannel.settled();
      });
      app.readiness.add('signing keys', async () => {
        await app.container.make(SigningKeys).load();
      });
      auditOAuthEvents(app);
    },
    boot(app: Application) {
      countTokensGranted(app);
      // Back-Channel Logout §2.8: deliveries a stop left unfinished go out now.
      app.container.make(BackchannelLogout).resume();
      // Back-Channel Logout §2: signing out with the site's own logout form ends the session too.
      app.events.listen(LoggedOut, (event) => {
        const sid = existingSid(event.session);
        if (sid !== null) app.container.make(BackchannelLogout).sessionEnded(sid);
      });
      // …and so do sessions ended for the user: a password reset or change, "sign out other
      // sessions", the account's deletion.
      app.events.listen(SessionsEnded, (event) => {
        for (const data of event.ended) {
          const sid = sidInData(data);
          if (sid !== null) app.container.make(BackchannelLogout).sessionEnded(sid);
        }
      });
      return bootApiGuard(app);
    },
  };
}

/** The OAuth services as singletons, without routes (the CLI uses this on any application). */
export function bindOAuthServices(container: Container, options: Omit<OAuthOptions, 'routes'> = {}): void {
  OAuthHooks.of({ container });
  container
    .singleton(OAuthStoreKey, (c) => c.construct(KyselyOAuthStore))
    .singleton(ApiKeyStoreKey, (c) => new KyselyApiKeyStore(c.make(DbKey)))
    .singleton(ApiKeys)
    .singleton(
      LastUsed,
      (c) => new LastUsed(new KyselyLastUsedWriter(c.make(DbKey)), c.make(ClockKey), c.make(LoggerKey)),
    )
    .singleton(SigningKeys)
    .singleton(AccessTokenSigner)
    .singleton(AccessTokenVerifier)
    .singleton(Scopes)
    .singleton(GrantRegistry, () => new GrantRegistry().registerAll(options.grants ?? []))
    .singleton(TokenIssuer)
    .singleton(IdTokenSigner)
    .singleton(AccessTokenClaims)
    .singleton(IdTokens)
    .singleton(TokenRevoker)
    .singleton(AuthorizedApps)
    .singleton(UserRevocation)
    .singleton(OrganizationRevocation)
    .singleton(MetadataDocumentClients)
    .singleton(ClientKeys)
    .singleton(ClientAssertions)
    .singleton(LiveClients)
    .singleton(ClientAuthenticator)
    .singleton(RequestObjects)
    .singleton(DpopProofs)
    .singleton(TokenEndpoint)
    .singleton(TokenInspector)
    .singleton(ClientLogout)
    .singleton(ClientMetadataStore)
    .singleton(BackchannelDeliveries)
    .singleton(BackchannelLogout)
    .singleton(AuthorizationService)
    .singleton(Clients)
    .singleton(ClientProvenances)
    .singleton(DeviceAuthorizations)
    .singleton(DeviceAuthorizationEndpoint)
    .singleton(UserCodeAttempts)
    .singleton(PersonalAccessTokens)
    .singleton(ProtectedResources)
    .singleton(ClientRegistrations)
    .singleton(PushedRequests)
    .singleton(PushedAuthorizationEndpoint)
    .instance(ApprovalViewKey, options.approvalView ?? defaultApprovalView)
    .instance(UserClaimsKey, options.oidc?.claims ?? defaultUserClaims);
}

/** The token endpoint's, the JSON APIs' and the device page's rate limits; the `throttle-token` and `prompt-none` middleware. */
function defineOAuthLimits(app: Application): void {
  const limits = app.container.make(RateLimits);
  const { token, api, device } = app.config.oauth.throttle;
  // Only failed client authentications count: a request a crash cut off stops counting in seconds.
  limits.define('token.client', token.client, { failuresOnly: true });
  limits.define('token.address', token.address, { failuresOnly: true });
  limits.define('oauth-api.user', api.user);
  limits.define('device.user', device.user);
  limits.define('device.address', device.address);
  const register = limits.define('register.address', app.config.oauth.throttle.register.address);
  app.router.middleware.alias('throttle-register', () => throttle(register, clientAddress));
  const documents = limits.define('documents.address', app.config.oauth.throttle.documents.address);
  app.router.middleware.alias('throttle-documents', () =>
    throttleDocumentFetches(documents, () => app.container.make(MetadataDocumentClients)),
  );
  app.router.middleware.alias('throttle-token', () =>
    throttleTokenRequests(limits, () => app.container.make(LoginThrottle)),
  );
  app.router.middleware.alias('prompt-none', () =>
    answerPromptNone(() => app.container.make(AuthorizationService)),
  );
}
