import type { Context } from 'hono';
import type { User } from '../../auth/user.js';
import { bindToken } from './user-resolver.js';
import type { VerifiedToken } from './verified-token.js';

/**
 * A step of the `api` guard after it found the request's credential and user: it may refuse the
 * request (throw an `HttpError`), count it, or narrow what the credential may do by returning
 * another token (fewer scopes); it returns the token the request continues with. Keep what a
 * credential's steps compute once in a `CredentialSlot`: a cached credential comes back as the
 * same object.
 */
export type GuardStep = (
  c: Context,
  user: User,
  token: VerifiedToken,
) => VerifiedToken | Promise<VerifiedToken>;

/**
 * Runs `steps` in order on the request's credential (none for a request without one), then binds
 * the user model to the token they ended with: the guard keeps one model per credential, so it is
 * bound on every request (`tokenCan()` follows a narrowing both ways). Synchronous while the steps are.
 */
export function runGuardSteps(c: Context, user: User, steps: readonly GuardStep[]): User | Promise<User> {
  const token = c.get('accessToken');
  return token === undefined ? user : continueSteps(c, user, token, steps, 0);
}

function continueSteps(
  c: Context,
  user: User,
  token: VerifiedToken,
  steps: readonly GuardStep[],
  from: number,
): User | Promise<User> {
  let current = token;
  for (let i = from; i < steps.length; i++) {
    const next = steps[i]!(c, user, current);
    if (next instanceof Promise)
      return next.then((t) => continueSteps(c, user, use(c, current, t), steps, i + 1));
    current = use(c, current, next);
  }
  bindToken(user, current);
  return user;
}

function use(c: Context, before: VerifiedToken, after: VerifiedToken): VerifiedToken {
  if (after !== before) c.set('accessToken', after);
  return after;
}
