import type { Selectable } from 'kysely';
import type { Timestamp } from '../database/types.js';

/**
 * The OAuth tables. Flags are 0/1 integers on both engines so rows read the same everywhere.
 * Secrets, codes and refresh tokens are stored only as SHA-256 hex digests; an access token (a
 * signed JWT) is not stored at all, only its id (`jti`).
 */
export interface OAuthClientsTable {
  id: string;
  user_id: number | null;
  name: string;
  /** SHA-256 of the secret; null for a public client (PKCE required). */
  secret: string | null;
  redirect: string;
  personal_access_client: number;
  password_client: number;
  /** 1: may introspect any access token (RFC 7662 §4), not only its own. */
  resource_server: number;
  /** RFC 9449 §5.2: its token requests must carry a DPoP proof; absent in rows joined without it. */
  dpop_bound_access_tokens?: number;
  /** SHA-256 of the secret the last rotation replaced; absent in rows joined without it. */
  previous_secret?: string | null;
  /** Until when `previous_secret` still authenticates the client. */
  previous_secret_expires_at?: string | null;
  revoked: number;
  created_at: Timestamp;
  updated_at: Timestamp;
  /** 1: the approval page is skipped (set by the operator, never through the JSON API). */
  first_party: number;
  /** JSON array of the scopes the client may ask for; null: any. */
  scopes: string | null;
  /** JSON array of the grant types the client may use; null: what its kind allows. */
  grant_types: string | null;
  /** 1: only pushed authorization requests (RFC 9126 §6). */
  require_pushed_authorization_requests: number;
  /** When any of its tokens was last used, to the minute; absent in rows joined without it. */
  last_used_at?: string | null;
  /** The organization that owns it (an opaque id to oauth); null: its user's, or the operator's. */
  organization_id?: number | null;
}

export interface OAuthAccessTokensTable {
  id: string;
  user_id: number | null;
  client_id: string;
  name: string | null;
  /** JSON array of scope names. */
  scopes: string;
  revoked: number;
  created_at: Timestamp;
  updated_at: Timestamp;
  expires_at: Timestamp;
  /** The signing key's `kid`; null for tokens issued before it was recorded. */
  kid: string | null;
  /** RFC 8707: the protected resource it was issued for (its `aud`); null: the client is the audience. */
  audience: string | null;
  /** When a request last used it, to the minute; absent in rows read before the column existed. */
  last_used_at?: string | null;
  /** The organization it acts for (the `org_id` claim); null: none. Absent in rows read without it. */
  organization_id?: number | null;
}

export interface OAuthRefreshTokensTable {
  /** SHA-256 of the refresh token. */
  id: string;
  access_token_id: string;
  /** The first refresh token of a rotation chain: reuse of any member revokes them all. */
  family_id: string;
  revoked: number;
  created_at: Timestamp;
  expires_at: Timestamp;
  /** OpenID Connect: when the user logged in (ISO-8601), for ID tokens issued on refresh. */
  auth_time: string | null;
  /** RFC 9449: a public client's refresh token needs a proof by this DPoP key. */
  dpop_jkt?: string | null;
  /** OpenID Connect: the login session's `sid`; absent in rows read before the column. */
  sid?: string | null;
  /** OpenID Connect: how the user signed in (`amr` values, space-separated); absent in rows read before the column. */
  amr?: string | null;
  /** OpenID Connect Core §5.5: the `claims` request (JSON); absent in rows read before the column. */
  claims?: string | null;
}

export interface OAuthAuthCodesTable {
  /** SHA-256 of the code. */
  id: string;
  user_id: number;
  client_id: string;
  scopes: string;
  redirect_uri: string;
  code_challenge: string | null;
  code_challenge_method: string | null;
  revoked: number;
  /** What the code was exchanged for: revoked if the code is presented again. */
  access_token_id: string | null;
  created_at: Timestamp;
  expires_at: Timestamp;
  /** OpenID Connect: the authorization request's `nonce`. */
  nonce: string | null;
  /** OpenID Connect: when the user logged in (ISO-8601). */
  auth_time: string | null;
  /** RFC 8707: the authorization request's `resource`. */
  resource: string | null;
  /** RFC 9449 §10: the `dpop_jkt` the code is bound to; absent in rows read before the column. */
  dpop_jkt?: string | null;
  /** OpenID Connect: the login session's `sid`, for the ID token; absent in rows read before the column. */
  sid?: string | null;
  /** OpenID Connect: how the user signed in (`amr` values, space-separated); absent in rows read before the column. */
  amr?: string | null;
  /** OpenID Connect Core §5.5: the `claims` request (JSON); absent in rows read before the column. */
  claims?: string | null;
}

/** A client's logout URIs (RP-Initiated Logout §3.1, Back-Channel Logout §2.2). */
export interface OAuthClientLogoutTable {
  client_id: string;
  /** JSON array of exact URIs. */
  post_logout_redirect_uris: string;
  backchannel_logout_uri: string | null;
  backchannel_logout_session_required: number;
}

/** OpenID Connect Core §5.5: the userinfo claims asked for by name, beside the access token. */
export interface OAuthAccessTokenClaimsTable {
  access_token_id: string;
  /** The `claims` request, JSON. */
  claims: string;
}

/** A back-channel logout token waiting for (another) delivery attempt. */
export interface OAuthBackchannelDeliveriesTable {
  /** The logout token's `jti`. */
  id: string;
  client_id: string;
  uri: string;
  logout_token: string;
  attempts: number;
  next_attempt_at: string;
  created_at: string;
}

/** Which clients got an ID token in which login session (`sid`), for back-channel logout. */
export interface OAuthLogoutSessionsTable {
  sid: string;
  client_id: string;
  user_id: number;
  created_at: string;
}

/** A device authorization request (RFC 8628 §3.1) and where its user's decision stands. */
export interface OAuthDeviceCodesTable {
  /** SHA-256 of the device code. */
  id: string;
  /** SHA-256 of the user code, normalized (upper case, no dash). */
  user_code: string;
  client_id: string;
  scopes: string;
  /** `pending`, `approved`, `denied` or `redeemed`. */
  status: string;
  /** Who approved or denied it. */
  user_id: number | null;
  /** Seconds the device must wait between polls; `slow_down` adds 5 (RFC 8628 §3.5). */
  poll_interval: number;
  last_polled_at: string | null;
  /** What the code was redeemed for. */
  access_token_id: string | null;
  created_at: Timestamp;
  expires_at: Timestamp;
}

/** An initial access token for dynamic registration (RFC 7591 §3, `tollgate client:registration-token`). */
export interface OAuthRegistrationTokensTable {
  /** SHA-256 of the token. */
  id: string;
  created_at: string;
  expires_at: string;
}

/** A dynamically registered client's registration access token (RFC 7592 §1). */
export interface OAuthClientRegistrationsTable {
  client_id: string;
  /** SHA-256 of the registration access token. */
  token: string;
  /** The registered `token_endpoint_auth_method` (the token endpoint accepts either secret method). */
  auth_method: string;
  created_at: string;
}

/** A registered client's further metadata (RFC 7591 §2, OpenID Connect Dynamic Registration §2). */
export interface OAuthClientMetadataTable {
  client_id: string;
  logo_uri: string | null;
  policy_uri: string | null;
  tos_uri: string | null;
  /** JSON Web Key Set (public keys), as registered. */
  jwks: string | null;
  jwks_uri: string | null;
  userinfo_signed_response_alg: string | null;
  request_object_signing_alg: string | null;
}

/** A client assertion's `jti`, kept until the assertion expires (RFC 7523 §3). */
export interface OAuthClientAssertionsTable {
  client_id: string;
  jti: string;
  expires_at: string;
}

/** A pushed authorization request (RFC 9126 §2). */
export interface OAuthPushedRequestsTable {
  /** SHA-256 of the `request_uri`'s random reference. */
  id: string;
  client_id: string;
  /** JSON object of the authorization request's parameters, as validated when pushed. */
  parameters: string;
  used: number;
  created_at: string;
  expires_at: string;
}

/** API keys: only the key's SHA-256 is stored. */
export interface ApiKeysTable {
  id: string;
  user_id: number;
  name: string;
  /** SHA-256 of the key, hex (unique). */
  key_hash: string;
  prefix: string;
  last_four: string;
  /** JSON array of scope names. */
  scopes: string;
  rate_limit_per_minute: number | null;
  revoked: number;
  created_at: string;
  updated_at: string;
  expires_at: string | null;
  last_used_at: string | null;
  /** The organization that owns it; null: its user's own key. */
  organization_id: number | null;
}

declare module '../database/types.js' {
  interface Database {
    oauth_clients: OAuthClientsTable;
    oauth_access_tokens: OAuthAccessTokensTable;
    oauth_refresh_tokens: OAuthRefreshTokensTable;
    oauth_auth_codes: OAuthAuthCodesTable;
    oauth_client_logout: OAuthClientLogoutTable;
    oauth_logout_sessions: OAuthLogoutSessionsTable;
    oauth_access_token_claims: OAuthAccessTokenClaimsTable;
    oauth_backchannel_deliveries: OAuthBackchannelDeliveriesTable;
    oauth_device_codes: OAuthDeviceCodesTable;
    oauth_registration_tokens: OAuthRegistrationTokensTable;
    oauth_client_registrations: OAuthClientRegistrationsTable;
    oauth_pushed_requests: OAuthPushedRequestsTable;
    oauth_client_metadata: OAuthClientMetadataTable;
    oauth_client_assertions: OAuthClientAssertionsTable;
    api_keys: ApiKeysTable;
  }
}

export type OAuthClientRow = Selectable<OAuthClientsTable>;
export type OAuthAccessTokenRow = Selectable<OAuthAccessTokensTable>;
export type OAuthRefreshTokenRow = Selectable<OAuthRefreshTokensTable>;
export type OAuthAuthCodeRow = Selectable<OAuthAuthCodesTable>;
export type OAuthDeviceCodeRow = Selectable<OAuthDeviceCodesTable>;
export type ApiKeyRow = Selectable<ApiKeysTable>;
