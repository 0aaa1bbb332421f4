import { type ConfigSlice, envBool, envInt } from '../core/config.js';
import { ConfigurationError } from '../core/errors.js';
import { parsePolicy, type RateLimitPolicy } from '../rate-limits/policy.js';

export type SigningAlgorithm = 'RS256' | 'ES256' | 'EdDSA';

/** One API this server's tokens protect, as RFC 9728 protected-resource metadata describes it. */
export interface ProtectedResourceConfig {
  /** The resource identifier (RFC 9728 §1.2): an absolute URL without query or fragment. */
  resource: string;
  /** `scopes_supported`; default: every scope in `oauth.scopes`. */
  scopes?: string[];
  /** `authorization_servers` (issuer identifiers); default: this server's issuer. */
  authorizationServers?: string[];
  /** `resource_name`, shown to users by some clients. */
  name?: string;
  /** `resource_documentation`: a page about the API for developers. */
  documentation?: string;
}

export type RegistrationPolicy = 'closed' | 'open' | 'token';

/**
 * Client ID Metadata Documents (draft-ietf-oauth-client-id-metadata-document): a `client_id` that
 * is an `https` URL names a JSON document the server fetches and uses as the client's registration.
 */
export interface ClientIdMetadataDocumentsConfig {
  /** Off by default: like open dynamic registration, it lets any web site be a client. */
  enabled: boolean;
  /**
   * Address ranges (ipaddr.js range names: `loopback`, `private`, `uniqueLocal`, `linkLocal`, …)
   * a document's host may resolve to besides public unicast ones. Empty in production; tests and
   * development may allow `loopback`.
   */
  allowAddressRanges: string[];
  /** Accept `http` client ids too (development and tests only; the draft requires `https`). */
  allowHttp: boolean;
  /** The largest document accepted, in bytes. */
  maxBytes: number;
  /** How long a fetch may take, in milliseconds. */
  timeoutMs: number;
  /** A document is kept for its `Cache-Control: max-age`, within these bounds; `default` without one. */
  cacheSeconds: { default: number; min: number; max: number };
}

/**
 * What the server fetches from URLs a client registered or sent: its `jwks_uri` (keys for
 * `private_key_jwt` and request objects) and a request object's `request_uri`. Fetched as
 * metadata documents are: public addresses only, no redirects, bounded in size and time.
 */
export interface ClientFetchConfig {
  /** Address ranges allowed besides public unicast ones (ipaddr.js names; tests allow `loopback`). */
  allowAddressRanges: string[];
  /** The largest document accepted, in bytes. */
  maxBytes: number;
  /** How long a fetch may take, in milliseconds. */
  timeoutMs: number;
  /** How long fetched keys are used before they are fetched again. */
  keysCacheSeconds: number;
  /** A signature by a key id not in the cached set fetches the set again, at most this often. */
  keysRefetchSeconds: number;
}

export interface OAuthConfig {
  scopes: Record<string, string>;
  accessTokenTtlSeconds: number;
  refreshTokenTtlSeconds: number;
  personalAccessTokenTtlSeconds: number;
  authCodeTtlSeconds: number;
  /** Lifetime of a device authorization request: its device code and user code (RFC 8628 §3.2 `expires_in`). */
  deviceCodeTtlSeconds: number;
  /** Seconds a device waits between polls at first (RFC 8628 §3.2 `interval`). */
  deviceCodePollIntervalSeconds: number;
  /** OpenID Connect ID tokens (`exp` − `iat`). */
  idTokenTtlSeconds: number;
  implicitGrant: boolean;
  /** Lifetime of a pushed authorization request's `request_uri` (RFC 9126 §2.2 `expires_in`). */
  pushedRequestTtlSeconds: number;
  /** Every client must push its authorization requests (RFC 9126 §5); per client: `tollgate client --require-par`. */
  requirePushedAuthorizationRequests: boolean;
  allowPlainPkce: boolean;
  signingAlgorithm: SigningAlgorithm;
  /** PEM keys from the environment (containers); empty means `storage/oauth-*.key`. */
  privateKey: string;
  publicKey: string;
  cookieName: string;
  /**
   * The APIs described at `/.well-known/oauth-protected-resource` (RFC 9728). Empty: one resource,
   * the application itself (its URL), with every scope.
   */
  protectedResources: ProtectedResourceConfig[];
  /** Rate limits of the OAuth endpoints (docs/security.md, "Rate limits"). */
  throttle: {
    token: {
      /** Token requests per client id whose client authentication (a secret) fails. */
      client: RateLimitPolicy;
      /** Token requests per client address whose client authentication fails. */
      address: RateLimitPolicy;
    };
    /** Requests to the JSON management APIs (`/oauth/clients`, …) per signed-in user. */
    api: { user: RateLimitPolicy };
    /** Wrong user codes entered on the device verification page, per user and per address. */
    device: { user: RateLimitPolicy; address: RateLimitPolicy };
    /** Dynamic client registrations (`POST /oauth/register`) per address. */
    register: { address: RateLimitPolicy };
    /** Requests that make the server fetch a client metadata document (not cached), per address. */
    documents: { address: RateLimitPolicy };
  };
  /**
   * Dynamic client registration (RFC 7591): `closed` (no `/oauth/register`), `open` (anyone), or
   * `token` (an initial access token from `tollgate client:registration-token`).
   */
  registration: RegistrationPolicy;
  /**
   * RFC 9449 §8, §9: DPoP proofs must carry a server-provided nonce (`use_dpop_nonce` and a
   * `DPoP-Nonce` header otherwise), at the token endpoint and at protected routes. A nonce is
   * derived from the application key and a window of `lifetimeSeconds`, so instances share them.
   */
  dpopNonces: { enabled: boolean; lifetimeSeconds: number };
  /** Client ID Metadata Documents: `https` client ids fetched as the client's registration. */
  clientIdMetadataDocuments: ClientIdMetadataDocumentsConfig;
  /** Fetches of a client's `jwks_uri` and `request_uri`. */
  clientFetch: ClientFetchConfig;
  /** Clients a user may own through the JSON API (`POST /oauth/clients`): 422 beyond. The CLI is not limited. */
  maxClientsPerUser: number;
  /** Redirect URLs one client may register (a comma-separated list): 422 beyond. */
  maxRedirectsPerClient: number;
  /** API keys (docs/api-keys.md). */
  apiKeys: {
    /** The header a key may also come in, beside `Authorization: Bearer`; empty: none. */
    header: string;
    /** `live` or `test` keys; empty: `live` when `app.env` is production, else `test`. */
    environment: '' | 'live' | 'test';
  };
}

declare module '../core/config.js' {
  interface TollgateConfig {
    oauth: OAuthConfig;
  }
}

const YEAR = 365 * 24 * 3600;

export const oauthConfig: ConfigSlice<'oauth'> = {
  defaults: {
    oauth: {
      scopes: {},
      accessTokenTtlSeconds: YEAR,
      refreshTokenTtlSeconds: 2 * YEAR,
      personalAccessTokenTtlSeconds: YEAR,
      authCodeTtlSeconds: 600,
      deviceCodeTtlSeconds: 600,
      deviceCodePollIntervalSeconds: 5,
      idTokenTtlSeconds: 3600,
      implicitGrant: false,
      pushedRequestTtlSeconds: 60,
      requirePushedAuthorizationRequests: false,
      allowPlainPkce: false,
      signingAlgorithm: 'RS256',
      privateKey: '',
      publicKey: '',
      cookieName: 'app_token',
      protectedResources: [],
      throttle: {
        token: {
          client: { points: 30, durationSeconds: 60 },
          address: { points: 60, durationSeconds: 60 },
        },
        api: { user: { points: 60, durationSeconds: 60 } },
        device: {
          user: { points: 5, durationSeconds: 60, maxBlockSeconds: 3600 },
          address: { points: 20, durationSeconds: 60, maxBlockSeconds: 3600 },
        },
        register: { address: { points: 10, durationSeconds: 3600 } },
        documents: { address: { points: 30, durationSeconds: 60 } },
      },
      registration: 'closed',
      dpopNonces: { enabled: false, lifetimeSeconds: 300 },
      clientIdMetadataDocuments: {
        enabled: false,
        allowAddressRanges: [],
        allowHttp: false,
        maxBytes: 5120,
        timeoutMs: 3000,
        cacheSeconds: { default: 300, min: 60, max: 86_400 },
      },
      clientFetch: {
        allowAddressRanges: [],
        maxBytes: 51_200,
        timeoutMs: 3000,
        keysCacheSeconds: 300,
        keysRefetchSeconds: 30,
      },
      maxClientsPerUser: 50,
      maxRedirectsPerClient: 10,
      apiKeys: { header: 'X-API-Key', environment: '' },
    },
  },
  fromEnv: (env) => ({
    oauth: {
      accessTokenTtlSeconds: envInt(env.OAUTH_ACCESS_TOKEN_TTL, 'OAUTH_ACCESS_TOKEN_TTL'),
      refreshTokenTtlSeconds: envInt(env.OAUTH_REFRESH_TOKEN_TTL, 'OAUTH_REFRESH_TOKEN_TTL'),
      deviceCodeTtlSeconds: envInt(env.OAUTH_DEVICE_CODE_TTL, 'OAUTH_DEVICE_CODE_TTL'),
      implicitGrant: envBool(env.OAUTH_IMPLICIT_GRANT),
      signingAlgorithm: (env.OAUTH_SIGNING_ALG as SigningAlgorithm) || undefined,
      privateKey: env.OAUTH_PRIVATE_KEY || undefined,
      publicKey: env.OAUTH_PUBLIC_KEY || undefined,
      throttle: {
        token: {
          client: parsePolicy(env.OAUTH_THROTTLE_TOKEN_CLIENT, 'OAUTH_THROTTLE_TOKEN_CLIENT'),
          address: parsePolicy(env.OAUTH_THROTTLE_TOKEN_ADDRESS, 'OAUTH_THROTTLE_TOKEN_ADDRESS'),
        },
        api: { user: parsePolicy(env.OAUTH_THROTTLE_API_USER, 'OAUTH_THROTTLE_API_USER') },
        device: {
          user: parsePolicy(env.OAUTH_THROTTLE_DEVICE_USER, 'OAUTH_THROTTLE_DEVICE_USER'),
          address: parsePolicy(env.OAUTH_THROTTLE_DEVICE_ADDRESS, 'OAUTH_THROTTLE_DEVICE_ADDRESS'),
        },
        register: {
          address: parsePolicy(env.OAUTH_THROTTLE_REGISTER_ADDRESS, 'OAUTH_THROTTLE_REGISTER_ADDRESS'),
        },
        documents: {
          address: parsePolicy(env.OAUTH_THROTTLE_DOCUMENTS_ADDRESS, 'OAUTH_THROTTLE_DOCUMENTS_ADDRESS'),
        },
      },
      registration: registrationPolicy(env.OAUTH_REGISTRATION),
      clientIdMetadataDocuments: { enabled: envBool(env.OAUTH_CLIENT_ID_METADATA_DOCUMENTS) },
      dpopNonces: { enabled: envBool(env.OAUTH_DPOP_NONCES) },
      maxClientsPerUser: envInt(env.OAUTH_MAX_CLIENTS_PER_USER, 'OAUTH_MAX_CLIENTS_PER_USER'),
      maxRedirectsPerClient: envInt(env.OAUTH_MAX_REDIRECTS_PER_CLIENT, 'OAUTH_MAX_REDIRECTS_PER_CLIENT'),
      apiKeys: {
        header: env.OAUTH_API_KEY_HEADER,
        environment: apiKeyEnvironmentOf(env.OAUTH_API_KEY_ENV),
      },
    },
  }),
};

function registrationPolicy(value: string | undefined): RegistrationPolicy | undefined {
  if (!value) return undefined;
  if (value === 'closed' || value === 'open' || value === 'token') return value;
  throw new ConfigurationError(`OAUTH_REGISTRATION must be closed, open or token, not "${value}".`);
}

function apiKeyEnvironmentOf(value: string | undefined): 'live' | 'test' | undefined {
  if (!value) return undefined;
  if (value === 'live' || value === 'test') return value;
  throw new ConfigurationError(`OAUTH_API_KEY_ENV must be live or test, not "${value}".`);
}
