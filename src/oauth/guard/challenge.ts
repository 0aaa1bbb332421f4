import { HttpError } from '../../core/errors.js';

/** The body of every 401 from the `api` guard (Laravel's). */
export const UNAUTHENTICATED = 'Unauthenticated.';
/** Passport's message for a failed scope check. */
export const INVALID_SCOPES = 'Invalid scope(s) provided.';

export type TokenFailure = 'missing' | 'invalid' | 'expired' | 'revoked' | 'no_user' | 'cookie';

const DESCRIPTIONS: Record<Exclude<TokenFailure, 'missing' | 'cookie'>, string> = {
  invalid: 'The access token is invalid.',
  expired: 'The access token has expired.',
  revoked: 'The access token has been revoked.',
  no_user: 'The access token does not belong to a user.',
};

/**
 * RFC 6750 §3: a request without credentials gets a bare `Bearer` challenge (no error code,
 * §3.1); one whose bearer token failed gets `error="invalid_token"`. A refused app_token cookie
 * is not a bearer token, so its challenge carries no error either.
 */
export function unauthenticated(failure: TokenFailure): HttpError {
  const challenge =
    failure === 'missing' || failure === 'cookie'
      ? 'Bearer'
      : `Bearer error="invalid_token", error_description="${DESCRIPTIONS[failure]}"`;
  return new HttpError(401, UNAUTHENTICATED, {
    body: { message: UNAUTHENTICATED },
    headers: { 'WWW-Authenticate': challenge, 'Cache-Control': 'no-store' },
  });
}

/** RFC 6750 §3.1 `insufficient_scope`: 403, naming the scopes the route needs (§3 `scope`). */
export function insufficientScope(required: readonly string[], mode: 'all' | 'any'): HttpError {
  const scope = required.join(' ');
  const description =
    mode === 'all'
      ? 'The access token lacks a required scope.'
      : 'The access token has none of the accepted scopes.';
  return new HttpError(403, INVALID_SCOPES, {
    body: { message: INVALID_SCOPES, error: 'insufficient_scope', error_description: description, scope },
    headers: {
      'WWW-Authenticate': `Bearer error="insufficient_scope", error_description="${description}", scope="${scope}"`,
      'Cache-Control': 'no-store',
    },
  });
}
