import type { Context } from 'hono';
import { ConfigurationError } from '../core/errors.js';
import { recordLogin } from './auth-time.js';
import type { Session } from './session.js';
import type { User } from './user.js';

declare module 'hono' {
  interface ContextVariableMap {
    /** The visitor's session, set by `startSession()` (in the `web` group); undefined elsewhere. */
    session: Session | undefined;
    /** The authenticated user: the session's, or the one the `auth` middleware's guard found. */
    user: User | undefined;
    /** The guard that authenticated `user` (`web`, `api`, …), set by the `auth` middleware and `login()`. */
    guard: string | undefined;
    /** Where the login page's "Forgot your password?" leads: set by a module that offers resets. */
    passwordResetPath: string | undefined;
    /** What a valid sign-up is told (new or taken address alike): set by a module that mails a link. */
    registrationNotice: string | undefined;
  }
}

/** The request's session; throws when the route does not start one (put it in the `web` group). */
export function requireSession(c: Context): Session {
  const session = c.get('session');
  if (!session) {
    throw new ConfigurationError(
      `No session on ${c.req.method} ${c.req.path}: add the route to the "web" middleware group.`,
    );
  }
  return session;
}

/** The authenticated user, or undefined. */
export function currentUser<T extends User = User>(c: Context): T | undefined {
  return c.get('user') as T | undefined;
}

/** The session's CSRF token, for forms (`_token`) and frontends (`X-CSRF-TOKEN`). */
export function csrfToken(c: Context): string {
  return requireSession(c).csrfToken;
}

/**
 * Signs `user` in on the session. The session id and CSRF token are renewed, so a session id
 * planted before login is worthless after it (session fixation). `at` is recorded as the login
 * time (OpenID Connect's `auth_time`): pass the injected clock's `now()`; `methods` are how the
 * user proved who they are (`amr`: `pwd`, `otp`).
 */
export function login(
  c: Context,
  user: User,
  at: Date = new Date(),
  methods: readonly string[] = ['pwd'],
): void {
  const session = requireSession(c);
  session.regenerate();
  recordLogin(session, at, methods);
  session.userId = user.id;
  session.user = user;
  c.set('user', user);
  c.set('guard', 'web');
}

/** Signs the user out: the session is destroyed (deleted when the response is sent) and a fresh one begins. */
export function logout(c: Context): void {
  requireSession(c).invalidate();
  c.set('user', undefined);
  c.set('guard', undefined);
}
