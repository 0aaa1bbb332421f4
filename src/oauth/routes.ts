import type { Router } from '../http/router.js';
import { ApiKeysController } from './http/api-keys-controller.js';
import { ApprovalController } from './http/authorization-controller.js';
import { AuthorizedTokensController } from './http/authorized-tokens-controller.js';
import { ClientsController } from './http/clients-controller.js';
import { DeviceCodeController } from './http/device-code-controller.js';
import { DeviceVerificationController } from './http/device-verification-controller.js';
import { LogoutController } from './http/logout-controller.js';
import { MetadataController } from './http/metadata-controller.js';
import { PersonalAccessTokensController } from './http/personal-access-tokens-controller.js';
import { ProtectedResourceController } from './http/protected-resource-controller.js';
import { PushedAuthorizationController } from './http/pushed-authorization-controller.js';
import { RegistrationController } from './http/registration-controller.js';
import { RevocationController } from './http/revocation-controller.js';
import { ScopesController } from './http/scopes-controller.js';
import { TokenController } from './http/token-controller.js';
import { UserInfoController } from './http/userinfo-controller.js';

/**
 * Passport's routes (names included) plus revocation, introspection, metadata and JWKS. Pages and
 * the JSON management APIs sit in the `web` group behind `auth` (session + CSRF), the APIs also
 * behind a per-user rate limit; the token, revocation and introspection endpoints authenticate
 * the client instead and take no session. The `throttle-token` and `throttle` middleware come
 * from `oauthProvider()` and `authProvider()`.
 */
export function registerOAuthRoutes(router: Router): void {
  router.controllers.registerMany({
    'OAuth/ApprovalController': ApprovalController,
    'OAuth/TokenController': TokenController,
    'OAuth/ClientsController': ClientsController,
    'OAuth/ScopesController': ScopesController,
    'OAuth/PersonalAccessTokensController': PersonalAccessTokensController,
    'OAuth/AuthorizedTokensController': AuthorizedTokensController,
    'OAuth/RevocationController': RevocationController,
    'OAuth/MetadataController': MetadataController,
    'OAuth/UserInfoController': UserInfoController,
    'OAuth/ProtectedResourceController': ProtectedResourceController,
    'OAuth/DeviceCodeController': DeviceCodeController,
    'OAuth/DeviceVerificationController': DeviceVerificationController,
    'OAuth/RegistrationController': RegistrationController,
    'OAuth/PushedAuthorizationController': PushedAuthorizationController,
    'OAuth/ApiKeysController': ApiKeysController,
    'OAuth/LogoutController': LogoutController,
  });

  // Small form bodies only (`http.bodyLimits.oauth`): a larger one is answered 413 unread.
  // `throttle-token`: the token endpoint's rate limits (http/token-throttle.ts); `throttle-documents`:
  // requests that would fetch a client metadata document, per address (http/document-throttle.ts).
  router
    .post('/oauth/token', [TokenController, 'issue'])
    .name('passport.token')
    .bodyLimit('oauth')
    .middleware('throttle-token', 'throttle-documents');
  // RFC 8628 §3.1: the client authenticates as at the token endpoint, under the same limits.
  router
    .post('/oauth/device/code', [DeviceCodeController, 'issue'])
    .name('oauth.device.code')
    .bodyLimit('oauth')
    .middleware('throttle-token', 'throttle-documents');
  // RFC 9126 §2: pushed authorization requests, the client authenticated as at the token endpoint.
  router
    .post('/oauth/par', [PushedAuthorizationController, 'push'])
    .name('oauth.par')
    .bodyLimit('oauth')
    .middleware('throttle-token', 'throttle-documents');
  // RFC 7591 / RFC 7592: dynamic registration (`oauth.registration`), limited per address.
  router
    .post('/oauth/register', [RegistrationController, 'store'])
    .name('oauth.register')
    .bodyLimit('oauth')
    .middleware('throttle-register');
  router.get('/oauth/register/{client_id}', [RegistrationController, 'show']).name('oauth.register.show');
  router
    .put('/oauth/register/{client_id}', [RegistrationController, 'update'])
    .name('oauth.register.update')
    .bodyLimit('oauth');
  router
    .delete('/oauth/register/{client_id}', [RegistrationController, 'destroy'])
    .name('oauth.register.destroy');
  router.post('/oauth/revoke', [RevocationController, 'revoke']).name('oauth.revoke').bodyLimit('oauth');
  router
    .post('/oauth/introspect', [RevocationController, 'introspect'])
    .name('oauth.introspect')
    .bodyLimit('oauth');
  router
    .get('/.well-known/oauth-authorization-server', [MetadataController, 'metadata'])
    .name('oauth.metadata');
  // OpenID Connect Core §5.3: behind the access token (the Authorization header), no session.
  router.get('/oauth/userinfo', [UserInfoController, 'show']).name('oauth.userinfo');
  router.post('/oauth/userinfo', [UserInfoController, 'show']).name('oauth.userinfo.post').bodyLimit('oauth');
  router
    .get('/.well-known/openid-configuration', [MetadataController, 'openIdConfiguration'])
    .name('oauth.openid-configuration');
  router.get('/oauth/jwks', [MetadataController, 'jwks']).name('oauth.jwks');
  router
    .get('/.well-known/oauth-protected-resource', [ProtectedResourceController, 'show'])
    .name('oauth.protected-resource');
  router
    .get('/.well-known/oauth-protected-resource/{path}', [ProtectedResourceController, 'showPath'])
    .where('path', '.+')
    .name('oauth.protected-resource.path');

  // `prompt-none` answers OpenID Connect's prompt=none before `auth` would show the login page.
  // The POST is the approval form's, and also (OpenID Connect Core §3.1.2.1) an authorization
  // request sent by POST, which the CSRF check lets through (see `isAuthorizationRequestPost`).
  router
    .get('/oauth/authorize', [ApprovalController, 'authorize'])
    .name('passport.authorizations.authorize')
    .middleware('web', 'throttle-documents', 'prompt-none', 'auth');
  // `oauth.approve`: a middleware group other modules may fill (accounts: only verified users approve).
  router.middleware.appendToGroup('oauth.approve');
  router
    .post('/oauth/authorize', [ApprovalController, 'approve'])
    .name('passport.authorizations.approve')
    .middleware('web', 'throttle-documents', 'prompt-none', 'auth', 'oauth.approve');
  // OpenID Connect RP-Initiated Logout 1.0: the end_session_endpoint, with or without a login.
  router.get('/oauth/logout', [LogoutController, 'endSession']).name('oauth.logout').middleware('web');
  router.post('/oauth/logout', [LogoutController, 'endSession']).name('oauth.logout.post').middleware('web');
  router.group({ middleware: ['web', 'auth'] }, (r) => {
    r.delete('/oauth/authorize', [ApprovalController, 'deny']).name('passport.authorizations.deny');
    // RFC 8628 §3.3: where users type the code their device shows.
    r.get('/oauth/device', [DeviceVerificationController, 'show']).name('oauth.device');
    r.post('/oauth/device', [DeviceVerificationController, 'check']).name('oauth.device.check');
    r.post('/oauth/device/authorize', [DeviceVerificationController, 'approve'])
      .name('oauth.device.approve')
      .middleware('oauth.approve');
    r.delete('/oauth/device/authorize', [DeviceVerificationController, 'deny']).name('oauth.device.deny');
  });

  // The JSON management APIs, limited per signed-in user (`oauth.throttle.api.user`).
  router.group({ middleware: ['web', 'auth', 'throttle:oauth-api.user'] }, (r) => {
    r.get('/oauth/tokens', [AuthorizedTokensController, 'index']).name('passport.tokens.index');
    r.delete('/oauth/tokens/{token_id}', [AuthorizedTokensController, 'destroy']).name(
      'passport.tokens.destroy',
    );

    r.get('/oauth/clients', [ClientsController, 'index']).name('passport.clients.index');
    r.post('/oauth/clients', [ClientsController, 'store']).name('passport.clients.store');
    r.put('/oauth/clients/{client_id}', [ClientsController, 'update']).name('passport.clients.update');
    r.delete('/oauth/clients/{client_id}', [ClientsController, 'destroy']).name('passport.clients.destroy');
    r.post('/oauth/clients/{client_id}/secret', [ClientsController, 'rotateSecret']).name(
      'passport.clients.secret',
    );

    r.get('/oauth/scopes', [ScopesController, 'index']).name('passport.scopes.index');

    r.get('/oauth/personal-access-tokens', [PersonalAccessTokensController, 'index']).name(
      'passport.personal.tokens.index',
    );
    r.post('/oauth/personal-access-tokens', [PersonalAccessTokensController, 'store']).name(
      'passport.personal.tokens.store',
    );
    r.post('/oauth/personal-access-tokens/{token_id}/regenerate', [
      PersonalAccessTokensController,
      'regenerate',
    ]).name('passport.personal.tokens.regenerate');
    r.delete('/oauth/personal-access-tokens/{token_id}', [PersonalAccessTokensController, 'destroy']).name(
      'passport.personal.tokens.destroy',
    );

    r.get('/api-keys', [ApiKeysController, 'index']).name('api-keys.index');
    r.post('/api-keys', [ApiKeysController, 'store']).name('api-keys.store');
    r.delete('/api-keys/{key_id}', [ApiKeysController, 'destroy']).name('api-keys.destroy');
  });
}
