import type { MiddlewareHandler } from 'hono';
import type { AuthorizationService } from '../authorization/authorization-service.js';
import { promptValues } from '../authorization/consent.js';
import { OAuthError } from '../errors.js';
import { authorizationErrorResponse } from './authorization-errors.js';
import { readQuery } from './respond.js';

/**
 * The `prompt-none` middleware, before `auth` on `GET /oauth/authorize`: OpenID Connect Core
 * §3.1.2.1 `prompt=none` from a visitor nobody is logged in as gets `login_required` at the
 * client's redirect URI (after the usual checks of the client and the request), instead of the
 * login page `auth` would show.
 */
export function answerPromptNone(service: () => AuthorizationService): MiddlewareHandler {
  return async function answerPromptNone(c, next) {
    if (c.get('session')?.user !== undefined || !promptValues(c.req.query('prompt')).includes('none')) {
      return next();
    }
    let query: Record<string, string> = {};
    try {
      query = readQuery(c);
      await service().validate(query);
      throw OAuthError.loginRequired();
    } catch (err) {
      return authorizationErrorResponse(c, service(), err, query);
    }
  };
}
