import type { ClaimsRequest } from './oidc/claims-request.js';
/** The OAuth domain records, free of any storage detail. Times are ISO-8601 strings. */

export interface ClientRecord {
  id: string;
  userId: number | null;
  name: string;
  /** SHA-256 of the secret; null for a public client. */
  secretHash: string | null;
  redirect: string;
  personalAccessClient: boolean;
  passwordClient: boolean;
  /** Trusted by the operator: users are not asked to approve it (`tollgate client --first-party`). */
  firstParty: boolean;
  /** The scopes it may ask for; null: any scope the application defines. */
  allowedScopes: string[] | null;
  /** The grants it may use, within what its kind allows; null: all of those. */
  grantTypes: string[] | null;
  /** May introspect any access token, not only its own (RFC 7662 §4). */
  resourceServer: boolean;
  /** Its authorization requests must be pushed first (RFC 9126 §6, `tollgate client --require-par`). */
  requirePushedAuthorizationRequests: boolean;
  /** RFC 9449 §5.2 `dpop_bound_access_tokens`: its token requests must carry a DPoP proof. */
  dpopBoundAccessTokens?: boolean;
  /** The secret a rotation replaced (SHA-256), accepted until `expiresAt` (the grace period). */
  previousSecret?: { hash: string; expiresAt: string };
  /** When any of its tokens was last used, to the minute; absent: never (or not read). */
  lastUsedAt?: string;
  /** The organization that owns it; null or absent: none (its user's, or the operator's). */
  organizationId?: number | null;
  revoked: boolean;
  createdAt: string;
  updatedAt: string;
}

export interface AccessTokenRecord {
  /** The JWT's `jti`. */
  id: string;
  /** Null for a client_credentials token. */
  userId: number | null;
  clientId: string;
  /** Set for personal access tokens. */
  name: string | null;
  scopes: string[];
  revoked: boolean;
  createdAt: string;
  updatedAt: string;
  expiresAt: string;
  /** The `kid` of the key that signed it; null or absent for tokens issued before kids were recorded. */
  kid?: string | null;
  /**
   * The protected resource it was issued for (RFC 8707), its `aud`; null or absent: issued for no
   * resource in particular (`aud` is the client id).
   */
  audience?: string | null;
  /** The organization it acts for, its `org_id` claim; null or absent: none. */
  organizationId?: number | null;
  /** When a request last used it, to the minute; absent: never. */
  lastUsedAt?: string;
}

/** A stored access token with what the protection layer needs to know about its client. */
export interface AccessTokenWithClient extends AccessTokenRecord {
  client: ClientRecord;
}

export interface RefreshTokenRecord {
  /** SHA-256 of the refresh token. */
  id: string;
  accessTokenId: string;
  familyId: string;
  revoked: boolean;
  createdAt: string;
  expiresAt: string;
  /** OpenID Connect: when the user logged in, kept down the rotation chain; null if unknown. */
  authTime?: string | null;
  /** RFC 9449: a public client's refresh token is usable only with a proof by this key. */
  jkt?: string | null;
  /** OpenID Connect: the login session of the grant, for the `sid` of ID tokens issued on refresh. */
  sid?: string | null;
  /** OpenID Connect: how the user signed in (`amr`: `pwd`, `otp`); null if unknown. */
  amr?: readonly string[] | null;
  /** OpenID Connect Core §5.5: the grant's `claims` request, kept down the rotation chain. */
  claims?: ClaimsRequest | null;
}

export interface AuthCodeRecord {
  /** SHA-256 of the code. */
  id: string;
  userId: number;
  clientId: string;
  scopes: string[];
  redirectUri: string;
  codeChallenge: string | null;
  codeChallengeMethod: 'S256' | 'plain' | null;
  revoked: boolean;
  accessTokenId: string | null;
  createdAt: string;
  expiresAt: string;
  /** OpenID Connect: the authorization request's `nonce`, for the ID token. */
  nonce?: string | null;
  /** OpenID Connect: when the user logged in, for the ID token's `auth_time`; null if unknown. */
  authTime?: string | null;
  /** RFC 8707: the authorization request's `resource`, the audience of the tokens it is exchanged for. */
  resource?: string | null;
  /** RFC 9449 §10: the thumbprint of the DPoP key the code may only be exchanged with. */
  dpopJkt?: string | null;
  /** OpenID Connect: the login session the code was issued in (the ID token's `sid`). */
  sid?: string | null;
  /** OpenID Connect: how the user signed in (`amr`: `pwd`, `otp`); null if unknown. */
  amr?: readonly string[] | null;
  /** OpenID Connect Core §5.5: the authorization request's `claims` parameter. */
  claims?: ClaimsRequest | null;
}

/** Where a device authorization request stands (RFC 8628 §3.5). */
export type DeviceCodeStatus = 'pending' | 'approved' | 'denied' | 'redeemed';

export interface DeviceCodeRecord {
  /** SHA-256 of the device code. */
  id: string;
  /** SHA-256 of the normalized user code. */
  userCodeHash: string;
  clientId: string;
  scopes: string[];
  status: DeviceCodeStatus;
  /** The user who approved or denied it. */
  userId: number | null;
  /** Seconds between polls; raised by 5 at each `slow_down`. */
  intervalSeconds: number;
  lastPolledAt: string | null;
  accessTokenId: string | null;
  createdAt: string;
  expiresAt: string;
}

/** The device authorization grant's `grant_type` (RFC 8628 §3.4). */
export const DEVICE_CODE_GRANT = 'urn:ietf:params:oauth:grant-type:device_code';

/**
 * What a client or token id can be: Tollgate issues UUIDs for clients (`Clients.create`) and
 * 40 hex digits for tokens, Passport integers, UUIDs or hex; the columns hold 64 characters.
 * Anything else (empty, longer, a NUL byte, a space, a quote) names no record: it is an unknown
 * client or token before any query — PostgreSQL would refuse a NUL in the query itself.
 */
const RECORD_ID = /^[A-Za-z0-9._~-]{1,64}$/;

export function isRecordId(id: string): boolean {
  return RECORD_ID.test(id);
}

/** Printable ASCII without spaces: the characters of a URL a client id may be (RFC 3986 §2). */
const URL_CLIENT_ID = /^https?:\/\/[\x21-\x7e]{1,247}$/;

/**
 * What a client id can be: a record id, or the URL of a Client ID Metadata Document (at most 255
 * characters, the width of the client id columns).
 */
export function isClientId(id: string): boolean {
  return RECORD_ID.test(id) || URL_CLIENT_ID.test(id);
}

/** Passport's client kinds, derived from the flags. */
export function isPublicClient(client: ClientRecord): boolean {
  return client.secretHash === null;
}

/**
 * Clients the operator trusts: password grant and personal access clients (which never see the
 * approval page) and clients flagged first-party (which skip it).
 */
export function isFirstPartyClient(client: ClientRecord): boolean {
  return client.personalAccessClient || client.passwordClient || client.firstParty;
}

/**
 * Which grants a client may use (Passport's `Client::hasGrantType`): what its kind allows,
 * narrowed by its `grantTypes` when set. A list never widens the kind's rules (a public client
 * gets no client_credentials, whatever its list says).
 */
export function clientHandlesGrant(client: ClientRecord, grantType: string): boolean {
  if (client.grantTypes && !client.grantTypes.includes(grantType)) return false;
  return kindHandlesGrant(client, grantType);
}

function kindHandlesGrant(client: ClientRecord, grantType: string): boolean {
  switch (grantType) {
    case 'authorization_code':
    case 'implicit':
      return !client.personalAccessClient && !client.passwordClient;
    case 'personal_access':
      return client.personalAccessClient && !isPublicClient(client);
    case 'password':
      return client.passwordClient;
    case 'client_credentials':
      return !isPublicClient(client);
    case DEVICE_CODE_GRANT:
      // Opt-in: a user code shown on a device invites phishing (RFC 8628 §5.4), so only a client
      // whose grant types name the grant may use it, never one that relies on its kind's defaults.
      return client.grantTypes !== null && !client.personalAccessClient && !client.passwordClient;
    default:
      return true;
  }
}
