import type { MiddlewareHandler } from 'hono';
import type { AuthorizationService } from '../authorization/authorization-service.js';
import { promptValues } from '../authorization/consent.js';
import { OAuthError } from '../errors.js';
import { authorizationErrorResponse, authorizationRedirect } from './authorization-errors.js';
import { asAuthorizeGet, authorizationRequestParams } from './authorization-params.js';

/**
 * The `prompt-none` middleware, before `auth` on `/oauth/authorize`, for a visitor nobody is
 * logged in as: OpenID Connect Core §3.1.2.1 `prompt=none` gets `login_required` at the client's
 * redirect URI (after the usual checks of the client and the request), instead of the login page
 * `auth` would show; a request by POST goes to the login page with the equivalent GET as the way
 * back, as `auth` does for a GET.
 */
export function answerPromptNone(
  service: () => AuthorizationService,
  loginPath = '/login',
): MiddlewareHandler {
  return async function answerPromptNone(c, next) {
    if (c.get('session')?.user !== undefined) return next();
    let query: Record<string, string> = {};
    try {
      const params = await authorizationRequestParams(c);
      if (params === undefined) return next();
      query = params;
      if (promptValues(query.prompt).includes('none')) {
        await service().validate(query);
        throw OAuthError.loginRequired();
      }
      if (c.req.method !== 'POST') return next();
      return authorizationRedirect(c, `${loginPath}?intended=${encodeURIComponent(asAuthorizeGet(query))}`);
    } catch (err) {
      return authorizationErrorResponse(c, service(), err, query);
    }
  };
}
