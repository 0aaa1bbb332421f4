import type { Context, MiddlewareHandler } from 'hono';
import { wantsJson } from '../http/respond.js';
import type { Guards } from './guards.js';

export const DEFAULT_GUARD = 'web';

/**
 * The `auth` middleware: `auth`, `auth:web`, `auth:api`, `auth:web,api`. The guards are tried in
 * order; the first user found is set as `user` (and its guard as `guard`). A guard may throw an
 * `HttpError` of its own (the token guard's 401 with `WWW-Authenticate`), which ends the request.
 * With no user: JSON requests get 401 `{ message: 'Unauthenticated.' }`, pages a redirect to the
 * login page carrying the `intended` URL.
 */
export function authenticate(guards: Guards, names: string[], loginPath = '/login'): MiddlewareHandler {
  const list = names.length > 0 ? names : [DEFAULT_GUARD];
  // Resolved when routes are committed, so a typo in `auth:…` fails at boot, not on a request.
  const resolved = list.map((name) => [name, guards.get(name)] as const);

  return async function authenticate(c, next) {
    for (const [name, guard] of resolved) {
      const user = await guard(c);
      if (user) {
        c.set('user', user);
        c.set('guard', name);
        return next();
      }
    }
    return unauthenticated(c, loginPath);
  };
}

/** The `guest` middleware: a signed-in visitor is sent to `home` instead (login and register pages). */
export function redirectIfAuthenticated(
  guards: Guards,
  names: string[],
  home = '/dashboard',
): MiddlewareHandler {
  const resolved = (names.length > 0 ? names : [DEFAULT_GUARD]).map((name) => guards.get(name));
  return async function redirectIfAuthenticated(c, next) {
    for (const guard of resolved) {
      if (await guard(c)) return c.redirect(home, 302);
    }
    return next();
  };
}

function unauthenticated(c: Context, loginPath: string): Response {
  if (wantsJson(c)) return c.json({ message: 'Unauthenticated.' }, 401);
  if (c.req.method !== 'GET' && c.req.method !== 'HEAD') return c.redirect(loginPath, 302);
  const url = new URL(c.req.url);
  return c.redirect(`${loginPath}?intended=${encodeURIComponent(url.pathname + url.search)}`, 302);
}
