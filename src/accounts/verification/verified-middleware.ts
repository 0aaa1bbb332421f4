import type { MiddlewareHandler } from 'hono';
import { HttpError } from '../../core/errors.js';
import { wantsJson } from '../../http/respond.js';
import { verifiedAt } from './email-verification.js';

export const NOT_VERIFIED = 'Your e-mail address is not verified.';

/**
 * The `verified` middleware (after `auth`): a signed-in user whose address is not verified gets
 * 403 JSON, or on pages the "verify your e-mail" page. Laravel's `verified`.
 */
export function ensureEmailVerified(noticePath = '/email/verify'): MiddlewareHandler {
  return async function ensureEmailVerified(c, next) {
    const user = c.get('user');
    if (user && !verifiedAt(user)) {
      if (wantsJson(c) || c.get('guard') !== 'web') throw new HttpError(403, NOT_VERIFIED);
      return c.redirect(noticePath, 302);
    }
    await next();
  };
}
