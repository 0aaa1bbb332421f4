import type { MiddlewareHandler } from 'hono';
import type { Clock } from '../core/clock.js';
import { wantsJson } from '../http/respond.js';
import { askToLogInAgain, authTimeOf, takeNewLogin } from './auth-time.js';
import { requireSession } from './context.js';
import { sameSitePath } from './intended.js';

export const SIGN_IN_AGAIN = 'Please sign in again to continue.';

/**
 * The `fresh-auth:<seconds>` middleware (after `auth`): lets the request through when the user
 * signed in (every step of it, a second factor included) at most `seconds` ago; otherwise pages
 * go through the login page again and come back, and JSON clients get `423` (Laravel's answer to
 * an unconfirmed password). A form post comes back to the page it was posted from.
 *
 * @example
 * router.post('/account/delete', [AccountController, 'destroy']).middleware('web', 'auth', 'fresh-auth:600');
 */
export function requireFreshAuth(
  seconds: number,
  clock: Clock,
  appUrl: string,
  loginPath = '/login',
): MiddlewareHandler {
  return async function requireFreshAuth(c, next) {
    const session = requireSession(c);
    const at = authTimeOf(session);
    if (at !== null && Math.floor(clock.now().getTime() / 1000) - at <= seconds) {
      // The login this asked for is answered: it must not pass later for one an OAuth client asks.
      takeNewLogin(session);
      return next();
    }
    if (wantsJson(c)) return c.json({ message: SIGN_IN_AGAIN }, 423);
    askToLogInAgain(session);
    session.flash('status', SIGN_IN_AGAIN);
    const url = new URL(c.req.url);
    const back =
      c.req.method === 'GET'
        ? url.pathname + url.search
        : sameSitePath(refererPath(c.req.header('referer')), appUrl);
    return c.redirect(back ? `${loginPath}?intended=${encodeURIComponent(back)}` : loginPath, 302);
  };
}

function refererPath(referer: string | undefined): string | undefined {
  if (!referer) return undefined;
  try {
    const url = new URL(referer);
    return url.pathname + url.search;
  } catch {
    return undefined;
  }
}
