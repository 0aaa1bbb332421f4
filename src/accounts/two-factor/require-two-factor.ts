import type { MiddlewareHandler } from 'hono';
import { authMethodsOf } from '../../auth/auth-time.js';
import { wantsJson } from '../../http/respond.js';
import type { TwoFactor } from './two-factor.js';

export const TWO_FACTOR_REQUIRED =
  'Your account needs two-factor authentication: set up an authenticator app to continue.';

/** What a user who still has to set up the app may reach: the account page's setup, signing out, assets. */
const OPEN = [
  /^\/account\/?$/,
  /^\/account\/two-factor(\/|$)/,
  /^\/logout$/,
  /^\/login(\/|$)/,
  /^\/assets\//,
  /^\/favicon/,
];

/**
 * In the `web` group when a second factor is required (`accounts.twoFactor.required`, or
 * `TwoFactor.requireWhen`): a signed-in user it applies to who has no authenticator app yet is
 * sent to the account page to set one up (JSON: `403`), and reaches nothing else. A session that
 * gave a code is let through without a query.
 */
export function requireTwoFactor(twoFactor: TwoFactor): MiddlewareHandler {
  return async function requireTwoFactor(c, next) {
    const user = c.get('user');
    const session = c.get('session');
    if (
      !user ||
      authMethodsOf(session).some((method) => method === 'otp' || method === 'hwk') ||
      OPEN.some((path) => path.test(c.req.path)) ||
      !(await twoFactor.requiredFor(user)) ||
      (await twoFactor.enabled(user.id))
    )
      return next();
    if (wantsJson(c)) return c.json({ message: TWO_FACTOR_REQUIRED }, 403);
    session?.flash('error', TWO_FACTOR_REQUIRED);
    return c.redirect('/account#two-factor', 302);
  };
}
