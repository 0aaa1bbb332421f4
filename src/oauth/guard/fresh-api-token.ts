import type { MiddlewareHandler } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import type { AppTokenCookie } from './app-token.js';

/**
 * Passport's `CreateFreshApiToken`, for the `web` group: a GET answered to a signed-in session
 * with a page (not a redirect) carries a fresh `app_token` cookie bound to the user and the session's CSRF token, so the
 * application's own JavaScript calls `auth:api` routes without ever handling a token. When the
 * session has no user (after logout) a presented cookie is deleted.
 *
 * @example router.middleware.appendToGroup('web', 'fresh-api-token')
 */
export function createFreshApiToken(cookie: AppTokenCookie): MiddlewareHandler {
  const attributes = cookie.attributes;
  return async function createFreshApiToken(c, next) {
    await next();
    const session = c.get('session');
    const user = session?.user;
    if (!session || !user) {
      if (getCookie(c, cookie.name) !== undefined)
        deleteCookie(c, cookie.name, { path: '/', secure: cookie.secure });
      return;
    }
    // Passport refreshes on GET only: page loads, not the API calls the cookie itself authenticates;
    // and not on a redirect (its `RedirectResponse` is not a page), whose next page gets one.
    if (c.req.method !== 'GET' || (c.res.status >= 300 && c.res.status < 400)) return;
    setCookie(c, cookie.name, cookie.seal({ userId: user.id, csrf: session.csrfToken }), attributes);
  };
}
