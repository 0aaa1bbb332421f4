import type { User } from '../../auth/user.js';
import { InjectionKey } from '../../core/container.js';
import { scopesAllow } from '../scopes.js';
import {
  type ClaimsRequest,
  type ClaimsTarget,
  scopesOfClaims,
  withRequestedClaims,
} from './claims-request.js';

/** The claims about a user released to a client (OpenID Connect Core §5.1), `sub` aside. */
export type Claims = Record<string, unknown>;

/**
 * The claims mapping hook: what the ID token and the userinfo endpoint say about `user` for the
 * granted `scopes`. Release only what the scopes cover (Core §5.4). `sub` is always the user id
 * and the ID token's own claims (`iss`, `aud`, `nonce`, …) win over anything returned here.
 *
 * @example
 * oauthProvider({ oidc: { claims: (user, scopes) => ({
 *   ...defaultUserClaims(user, scopes),
 *   ...(scopes.includes('profile') ? { preferred_username: user.handle } : {}),
 * }) } })
 */
export type UserClaims = (user: User, scopes: readonly string[]) => Claims | Promise<Claims>;

export const UserClaimsKey = new InjectionKey<UserClaims>('UserClaims');

/**
 * The default mapping: `profile` → `name` (and `updated_at`, in seconds, when the user has it),
 * `email` → `email` and `email_verified` (true only when the user records a verification:
 * `email_verified` or `email_verified_at`).
 */
export function defaultUserClaims(user: User, scopes: readonly string[]): Claims {
  const claims: Claims = {};
  const record = user as unknown as Record<string, unknown>;
  if (scopesAllow(scopes, 'profile')) {
    if (typeof user.name === 'string') claims.name = user.name;
    const updated = Date.parse(String(record.updated_at ?? ''));
    if (Number.isFinite(updated)) claims.updated_at = Math.floor(updated / 1000);
  }
  if (scopesAllow(scopes, 'email')) {
    if (typeof user.email === 'string') claims.email = user.email;
    // Core §5.1: say whether the address was verified; a user table that does not record it says no.
    claims.email_verified = emailVerified(record) ?? false;
  }
  return claims;
}

/** A boolean `email_verified`, or Laravel's `email_verified_at` timestamp (null: not verified). */
function emailVerified(record: Record<string, unknown>): boolean | undefined {
  if (typeof record.email_verified === 'boolean') return record.email_verified;
  if (typeof record.email_verified === 'number') return record.email_verified === 1;
  if ('email_verified_at' in record) return record.email_verified_at != null;
  return undefined;
}

/**
 * The claims the hook releases for `scopes`, plus those the `claims` request names for `target`
 * (Core §5.5, within the scopes that cover them, which the user approved), with `sub` (the user
 * id, as the access token's) set last.
 */
export async function releasedClaims(
  hook: UserClaims,
  user: User,
  scopes: readonly string[],
  request: ClaimsRequest | null = null,
  target: ClaimsTarget = 'userinfo',
): Promise<Claims> {
  const granted = await hook(user, scopes);
  const more = scopesOfClaims(request).filter((scope) => !scopes.includes(scope));
  const named = more.length > 0 ? await hook(user, [...scopes, ...more]) : granted;
  return { ...withRequestedClaims(granted, named, request, target), sub: String(user.id) };
}
