import type { MiddlewareHandler } from 'hono';
import { ConfigurationError } from '../../core/errors.js';
import { OAuthError } from '../errors.js';
import { ALL_SCOPES } from '../scopes.js';
import type { TokenGuard } from './token-guard.js';
import { hasAllScopes, hasAnyScope } from './verified-token.js';

/** The scope names a route may require: the application's, checked when routes are committed. */
export type KnownScopes = { has(name: string): boolean };

function required(alias: string, scopes: readonly string[], known?: KnownScopes): readonly string[] {
  if (scopes.length === 0)
    throw new ConfigurationError(`The "${alias}" middleware needs scopes: "${alias}:a,b".`);
  for (const scope of scopes) {
    if (known && scope !== ALL_SCOPES && !known.has(scope))
      throw new ConfigurationError(
        `"${alias}:${scopes.join(',')}" names the scope "${scope}", which is not defined.`,
      );
  }
  return Object.freeze([...scopes]);
}

/**
 * `scopes:a,b` — the token must have every listed scope (`*` has them all). Runs after
 * `auth:api`; the list is parsed once, when the route is compiled. 403 `insufficient_scope`,
 * rendered by the error handler through `OAuthError.getResponse()`.
 */
export function checkScopes(scopes: readonly string[], known?: KnownScopes): MiddlewareHandler {
  const list = required('scopes', scopes, known);
  const refused = OAuthError.insufficientScope(list, 'all');
  // Not `async`: on the way through, Hono's own promise from `next()` is all that is needed.
  return function checkScopes(c, next) {
    const token = c.get('accessToken');
    if (token === undefined) throw OAuthError.invalidToken({ reason: 'missing' });
    if (!hasAllScopes(token, list)) throw refused;
    return next();
  };
}

/** `scope:a,b` — the token must have at least one listed scope. 403 `insufficient_scope`. */
export function checkForAnyScope(scopes: readonly string[], known?: KnownScopes): MiddlewareHandler {
  const list = required('scope', scopes, known);
  const refused = OAuthError.insufficientScope(list, 'any');
  return function checkForAnyScope(c, next) {
    const token = c.get('accessToken');
    if (token === undefined) throw OAuthError.invalidToken({ reason: 'missing' });
    if (!hasAnyScope(token, list)) throw refused;
    return next();
  };
}

/**
 * `client` / `client:a,b` — Passport's `CheckClientCredentials`, for machine-to-machine routes:
 * a valid bearer token (client_credentials tokens have no user), with every listed scope.
 */
export function checkClientCredentials(
  guard: () => TokenGuard,
  scopes: readonly string[],
  known?: KnownScopes,
): MiddlewareHandler {
  const list = scopes.length === 0 ? scopes : required('client', scopes, known);
  const refused = OAuthError.insufficientScope(list, 'all');
  return async function checkClientCredentials(c, next) {
    const token = await guard().token(c);
    if (list.length > 0 && !hasAllScopes(token, list)) throw refused;
    return next();
  };
}
