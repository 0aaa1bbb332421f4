import { CredentialSlot, type VerifiedToken } from '../oauth/index.js';
import type { Plan } from './plan.js';

/** Per credential (the guard keeps it between requests), the plan it was last narrowed for and the result. */
const narrowed = new CredentialSlot<{ plan: Plan; token: VerifiedToken }>();

/**
 * The token as the plan lets it act: its scopes intersected with the plan's (`*` in the token
 * stands for every scope the plan allows). A plan that allows `*` returns the token itself; the
 * narrowed copy is kept on the credential per plan, so a reused token costs one field read.
 */
export function withinPlan(token: VerifiedToken, plan: Plan): VerifiedToken {
  const allowed = plan.scopes;
  if (allowed === null) return token;
  const hit = narrowed.get(token);
  if (hit !== undefined && hit.plan === plan) return hit.token;
  const scopes = Object.freeze(token.allScopes ? [...allowed] : token.scopes.filter((s) => allowed.has(s)));
  const out: VerifiedToken = Object.freeze({
    ...token,
    scopes,
    allScopes: false,
    current: Object.freeze({ ...token.current, scopes }),
    claims: Object.freeze({ ...token.claims, scopes: scopes as string[], scope: scopes.join(' ') }),
  });
  narrowed.set(token, { plan, token: out });
  return out;
}

/**
 * Of the scopes requested for a new credential, those the plan allows; `*` stands for the plan's
 * whole list. Under a plan that allows `*`, the request as it is.
 */
export function issuableScopes(names: readonly string[], plan: Plan): readonly string[] {
  const allowed = plan.scopes;
  if (allowed === null) return names;
  const out = new Set<string>();
  for (const name of names) {
    if (name === '*') for (const scope of allowed) out.add(scope);
    else if (allowed.has(name)) out.add(name);
  }
  return [...out];
}
