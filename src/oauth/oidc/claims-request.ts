import { OAuthError } from '../errors.js';
import { CLAIMS_BY_SCOPE } from './scopes.js';
import type { Claims } from './user-claims.js';

/** One requested claim (OpenID Connect Core §5.5.1): null, or how much the client needs it. */
export type ClaimRequest = { essential?: boolean; value?: unknown; values?: unknown[] } | null;

/** Core §5.5: the `claims` parameter — the claims wanted in the userinfo response and in the ID token. */
export interface ClaimsRequest {
  userinfo?: Record<string, ClaimRequest>;
  id_token?: Record<string, ClaimRequest>;
}

const MEMBERS = ['userinfo', 'id_token'] as const;
/** Where the requested claims go: the userinfo response or the ID token. */
export type ClaimsTarget = (typeof MEMBERS)[number];

/** What the `claims` parameter may hold at most: it lives in the session and beside the tokens. */
const MAX_LENGTH = 4_096;

const invalid = (description: string) => OAuthError.invalidRequest(description, { redirectable: true });

/**
 * Core §5.5: parses the `claims` parameter, a JSON object with `userinfo` and `id_token` members,
 * each mapping claim names to null or `{ essential, value, values }`. Other members are ignored
 * (§5.5: not understood); anything else is `invalid_request`. Undefined: no parameter.
 */
export function parseClaimsRequest(raw: string | undefined): ClaimsRequest | undefined {
  if (raw === undefined) return undefined;
  if (raw.length > MAX_LENGTH) throw invalid('The claims parameter is too long.');
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    throw invalid('The claims parameter must be a JSON object.');
  }
  if (!isObject(parsed)) throw invalid('The claims parameter must be a JSON object.');
  const request: ClaimsRequest = {};
  for (const member of MEMBERS) {
    const claims = parsed[member];
    if (claims === undefined || claims === null) continue;
    if (!isObject(claims)) throw invalid(`The claims parameter's ${member} member must be an object.`);
    const checked: Record<string, ClaimRequest> = {};
    for (const [name, wanted] of Object.entries(claims)) {
      if (wanted !== null && !isObject(wanted))
        throw invalid(`The claims parameter: the request for ${name} must be null or an object.`);
      if (wanted && 'essential' in wanted && typeof wanted.essential !== 'boolean')
        throw invalid(`The claims parameter: essential for ${name} must be a boolean.`);
      if (wanted && 'values' in wanted && !Array.isArray(wanted.values))
        throw invalid(`The claims parameter: values for ${name} must be an array.`);
      checked[name] = wanted as ClaimRequest;
    }
    request[member] = checked;
  }
  return request;
}

/**
 * The scopes that cover the claims asked for by name (`name` → `profile`, `email` → `email`):
 * the approval page asks for them too, so a claim requested by name is released only with the
 * user's approval, as if its scope had been asked for.
 */
export function scopesOfClaims(request: ClaimsRequest | null | undefined): string[] {
  if (!request) return [];
  const names = new Set(MEMBERS.flatMap((member) => Object.keys(request[member] ?? {})));
  return Object.entries(CLAIMS_BY_SCOPE)
    .filter(([, claims]) => claims.some((claim) => names.has(claim)))
    .map(([scope]) => scope);
}

/**
 * The claims released to `target`: what the granted scopes cover (`granted`), plus the claims the
 * request names for this target, picked from what the claims' own scopes cover (`named`).
 */
export function withRequestedClaims(
  granted: Claims,
  named: Claims,
  request: ClaimsRequest | null | undefined,
  target: ClaimsTarget,
): Claims {
  const wanted = request?.[target];
  if (!wanted) return granted;
  const picked: Claims = {};
  for (const name of Object.keys(wanted)) if (name in named) picked[name] = named[name];
  return { ...picked, ...granted };
}

/**
 * The request without the claims of scopes `allowed` does not include (a client's scope limit):
 * those are never released. Null `allowed`: no limit.
 */
export function claimsWithin(request: ClaimsRequest, allowed: readonly string[] | null): ClaimsRequest {
  if (allowed === null) return request;
  const refused = new Set(
    Object.entries(CLAIMS_BY_SCOPE)
      .filter(([scope]) => !allowed.includes(scope))
      .flatMap(([, claims]) => claims),
  );
  const kept: ClaimsRequest = {};
  for (const member of MEMBERS) {
    const wanted = request[member];
    if (wanted)
      kept[member] = Object.fromEntries(Object.entries(wanted).filter(([name]) => !refused.has(name)));
  }
  return kept;
}

/** The request as stored beside a code or a token; null when there is none. */
export function storedClaimsRequest(request: ClaimsRequest | null | undefined): string | null {
  return request ? JSON.stringify(request) : null;
}

/** A stored request read back; null when there is none. */
export function readClaimsRequest(stored: string | null | undefined): ClaimsRequest | null {
  return stored ? (JSON.parse(stored) as ClaimsRequest) : null;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
