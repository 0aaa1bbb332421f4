import type { Context, MiddlewareHandler, Next } from 'hono';
import { wantsJson } from '../http/respond.js';
import { loggingInAgain } from './auth-time.js';
import type { Guards } from './guards.js';
import type { User } from './user.js';

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

  const signIn = (c: Context, next: Next, user: User, name: string) => {
    c.set('user', user);
    c.set('guard', name);
    return next();
  };
  // Tries the guards from `i` on; synchronous while they answer synchronously (a cached token).
  const attempt = (c: Context, next: Next, i: number): Response | ReturnType<MiddlewareHandler> => {
    for (; i < resolved.length; i++) {
      const [name, guard] = resolved[i]!;
      const user = guard(c);
      if (isPending(user)) {
        const at = i;
        return Promise.resolve(user).then((found) =>
          found ? signIn(c, next, found, name) : attempt(c, next, at + 1),
        );
      }
      if (user) return signIn(c, next, user, name);
    }
    return unauthenticated(c, loginPath);
  };
  // May return a Response synchronously: Hono's compose awaits it, the route chain takes it as is.
  return function authenticate(c, next) {
    return attempt(c, next, 0);
  } as MiddlewareHandler;
}

/**
 * The `guest` middleware: a signed-in visitor is sent to `home` instead (login and register
 * pages), unless asked to log in again (OpenID Connect `prompt=login`, `max_age`).
 */
export function redirectIfAuthenticated(
  guards: Guards,
  names: string[],
  home = '/dashboard',
): MiddlewareHandler {
  const resolved = (names.length > 0 ? names : [DEFAULT_GUARD]).map((name) => guards.get(name));
  return async function redirectIfAuthenticated(c, next) {
    if (loggingInAgain(c.get('session'))) return next();
    for (const guard of resolved) {
      if (await guard(c)) return c.redirect(home, 302);
    }
    return next();
  };
}

function isPending(value: unknown): value is PromiseLike<User | undefined> {
  return typeof (value as PromiseLike<unknown> | undefined)?.then === 'function';
}

function unauthenticated(c: Context, loginPath: string): Response {
  if (wantsJson(c)) return c.json({ message: 'Unauthenticated.' }, 401);
  if (c.req.method !== 'GET' && c.req.method !== 'HEAD') return c.redirect(loginPath, 302);
  const url = new URL(c.req.url);
  return c.redirect(`${loginPath}?intended=${encodeURIComponent(url.pathname + url.search)}`, 302);
}
