import type { AccessTokenClaims } from '../jwt/claims.js';
import type { CurrentAccessToken } from '../personal/has-api-tokens.js';
import { ALL_SCOPES } from '../scopes.js';

/**
 * A token whose signature, issuer and type were checked once: what the verified-token cache keeps
 * until `exp`. Everything a request needs is computed here, so a cache hit allocates nothing.
 */
export interface VerifiedToken {
  /** The `jti`: the stored token's id. */
  readonly id: string;
  readonly clientId: string;
  /** Null for a client_credentials token (its `sub` is the client). */
  readonly userId: number | null;
  readonly scopes: readonly string[];
  /** Holds `*`: passes every scope check. */
  readonly allScopes: boolean;
  /** `exp` in milliseconds: refused from this instant on, by the injected clock. */
  readonly expiresAtMs: number;
  /**
   * The protected resource it was issued for (RFC 8707): its `aud` when that is not the client
   * id; null for a token issued for no resource in particular.
   */
  readonly resource: string | null;
  /** RFC 9449: the thumbprint of the DPoP key it is bound to (`cnf.jkt`); null: a bearer token. */
  readonly jkt: string | null;
  /**
   * The organization the credential acts for: an access token's `org_id`, an organization's API
   * key; null for a personal credential.
   */
  readonly organizationId: number | null;
  /** What `user.token()` returns and the scope middleware reads; shared, so frozen. */
  readonly current: Readonly<CurrentAccessToken>;
  readonly claims: Readonly<AccessTokenClaims>;
  /**
   * What the guard's steps keep for this credential (`CredentialSlot`), as long as the guard keeps
   * it; a narrowed copy of the token shares it.
   */
  readonly slots: unknown[];
}

/**
 * The token's view of its claims; `sub` is a user id unless it equals the client (client_credentials).
 * Frozen claims (the verifier's) are kept as they are, not copied.
 */
export function toVerifiedToken(claims: AccessTokenClaims): VerifiedToken {
  const userId = claims.sub === claims.client_id || !/^\d+$/.test(claims.sub) ? null : Number(claims.sub);
  const scopes = Object.isFrozen(claims.scopes) ? claims.scopes : Object.freeze([...claims.scopes]);
  const expiresAtMs = claims.exp * 1000;
  const organizationId = claims.org_id ?? null;
  return Object.freeze({
    id: claims.jti,
    clientId: claims.client_id,
    userId,
    scopes,
    allScopes: scopes.includes(ALL_SCOPES),
    expiresAtMs,
    resource: claims.aud === claims.client_id ? null : claims.aud,
    jkt: claims.cnf?.jkt ?? null,
    organizationId,
    current: new IssuedToken(claims.jti, claims.client_id, userId, scopes, expiresAtMs, organizationId),
    claims:
      Object.isFrozen(claims) && claims.scopes === scopes
        ? claims
        : Object.freeze({ ...claims, scopes: scopes as string[] }),
    slots: [],
  });
}

/**
 * `user.token()` of an access token. `expiresAt` is written out when read (and in JSON): an ISO
 * string costs about a microsecond, as much as the rest of a verified token, and few requests
 * read it.
 */
class IssuedToken implements CurrentAccessToken {
  readonly #expiresAtMs: number;

  constructor(
    readonly id: string,
    readonly clientId: string,
    readonly userId: number | null,
    readonly scopes: readonly string[],
    expiresAtMs: number,
    readonly organizationId: number | null,
  ) {
    this.#expiresAtMs = expiresAtMs;
    Object.freeze(this);
  }

  get expiresAt(): string {
    return new Date(this.#expiresAtMs).toISOString();
  }

  toJSON(): CurrentAccessToken {
    const { id, clientId, userId, scopes, expiresAt, organizationId } = this;
    return { id, clientId, userId, scopes, expiresAt, organizationId };
  }
}

/** Whether the token has every scope of `required` (`scopes:a,b`). */
export function hasAllScopes(
  token: Pick<VerifiedToken, 'allScopes' | 'scopes'>,
  required: readonly string[],
): boolean {
  if (token.allScopes) return true;
  for (let i = 0; i < required.length; i++) if (!token.scopes.includes(required[i]!)) return false;
  return true;
}

/** Whether the token has at least one scope of `required` (`scope:a,b`). */
export function hasAnyScope(
  token: Pick<VerifiedToken, 'allScopes' | 'scopes'>,
  required: readonly string[],
): boolean {
  if (token.allScopes) return true;
  for (let i = 0; i < required.length; i++) if (token.scopes.includes(required[i]!)) return true;
  return false;
}

/**
 * A token that was never issued: the app_token cookie's (Passport's `TransientToken`, which can
 * do everything) and `actingAs()`'s in tests. It never expires and is never looked up.
 */
export function transientToken(
  userId: number | null,
  scopes: readonly string[],
  clientId = '',
): VerifiedToken {
  return credentialToken({
    id: 'transient',
    clientId,
    userId,
    scopes,
    expiresAtMs: Number.POSITIVE_INFINITY,
  });
}

/**
 * An API key as the scope middleware, `user.token()` and `tokenCan()` see it: its id, its user,
 * its scopes; no client, `current.kind` says `api_key`.
 */
export function apiKeyToken(key: {
  id: string;
  userId: number;
  scopes: readonly string[];
  expiresAt: string | null;
  organizationId?: number | null;
}): VerifiedToken {
  const expiresAtMs = key.expiresAt === null ? Number.POSITIVE_INFINITY : Date.parse(key.expiresAt);
  return credentialToken({ ...key, clientId: '', expiresAtMs, kind: 'api_key' });
}

function credentialToken(t: {
  id: string;
  clientId: string;
  userId: number | null;
  scopes: readonly string[];
  expiresAtMs: number;
  expiresAt?: string | null;
  kind?: 'api_key';
  organizationId?: number | null;
}): VerifiedToken {
  const { id, clientId, userId } = t;
  const organizationId = t.organizationId ?? null;
  const list = Object.freeze([...t.scopes]);
  const current: CurrentAccessToken = { id, clientId, userId, scopes: list, organizationId };
  if (t.expiresAt) current.expiresAt = t.expiresAt;
  if (t.kind) current.kind = t.kind;
  return Object.freeze({
    id,
    clientId,
    userId,
    scopes: list,
    allScopes: list.includes(ALL_SCOPES),
    expiresAtMs: t.expiresAtMs,
    resource: null,
    jkt: null,
    organizationId,
    current: Object.freeze(current),
    claims: Object.freeze({
      iss: '',
      sub: userId === null ? clientId : String(userId),
      aud: clientId,
      client_id: clientId,
      jti: id,
      iat: 0,
      exp: t.expiresAtMs === Number.POSITIVE_INFINITY ? t.expiresAtMs : Math.floor(t.expiresAtMs / 1000),
      scope: list.join(' '),
      scopes: list as string[],
      ...(organizationId === null ? {} : { org_id: organizationId }),
    }),
    slots: [],
  });
}
