import type { Clock } from '../../core/clock.js';
import type { TollgateConfig } from '../../core/config.js';
import type { IdTokens } from '../oidc/id-tokens.js';
import type { ClientRecord } from '../records.js';
import type { KnownResources } from '../rules/check-resource.js';
import type { Scopes } from '../scopes.js';
import type { OAuthStore } from '../stores/contracts.js';
import type { IssueOptions, OpenIdGrant, TokenIssuer, TokenResponse } from '../tokens/token-issuer.js';
import type { TokenRevoker } from '../tokens/token-revoker.js';

/** A token request, free of HTTP: its form fields (RFC 6749 §3.2) and the Authorization header. */
export interface TokenRequest {
  params: Readonly<Record<string, string | undefined>>;
  authorization?: string | undefined;
}

/** Resource-owner credentials for the password grant (the `Users` service fits). */
export interface UserCredentials {
  attempt(email: string, password: string): Promise<{ id: number } | undefined>;
}

/** What a grant may use. Built once by the token endpoint. */
export interface GrantServices {
  store: OAuthStore;
  issuer: TokenIssuer;
  revoker: TokenRevoker;
  scopes: Scopes;
  clock: Clock;
  config: TollgateConfig['oauth'];
  users: UserCredentials;
  /** OpenID Connect ID tokens, for grants that answer an `openid` request. */
  idTokens: IdTokens;
  /** The protected resources a `resource` parameter may name (RFC 8707). */
  resources: KnownResources;
}

/**
 * The form fields a grant reads besides `grant_type` and the client's credentials
 * (node-oidc-provider's `parameters`): the endpoint refuses a request missing a required one
 * before the grant runs, and hands the grant only these, typed.
 */
export interface GrantParameters {
  readonly required: readonly string[];
  readonly optional: readonly string[];
}

/** The parameters of `P` as the grant receives them. */
export type GrantParams<P extends GrantParameters> = { readonly [K in P['required'][number]]: string } & {
  readonly [K in P['optional'][number]]?: string;
};

/** A token request that passed the endpoint's checks: an authenticated client allowed this grant. */
export interface GrantRequest<P extends GrantParameters = GrantParameters> {
  readonly client: ClientRecord;
  readonly params: GrantParams<P>;
  /** RFC 9449: the thumbprint of the request's valid DPoP proof key, if it sent one. */
  readonly dpopJkt?: string | undefined;
}

/**
 * One grant type of the token endpoint (node-oidc-provider's `{ grantType, parameters, handler }`
 * modules). Its handler issues through one `TokenIssuer.issue()` call.
 */
export interface Grant<P extends GrantParameters = GrantParameters> {
  readonly grantType: string;
  readonly parameters: P;
  handle(request: GrantRequest<P>, services: GrantServices): Promise<TokenResponse>;
}

/**
 * A grant with its parameters' names kept as literal types, so its handler reads them typed.
 *
 * @example
 * defineGrant({ grantType: 'urn:example:otp', parameters: { required: ['otp'], optional: [] }, handle })
 */
export function defineGrant<const P extends GrantParameters>(grant: Grant<P>): Grant<P> {
  return grant;
}

/**
 * What a grant on a user's behalf issues: an access and a refresh token, at the configured
 * lifetimes, for `audience` (RFC 8707; null: the client).
 */
export function userTokens(
  services: GrantServices,
  client: ClientRecord,
  userId: number | null,
  scopes: readonly string[],
  audience: string | null = null,
  /** What the refresh token keeps for OpenID Connect's later ID tokens (see `OpenIdGrant`). */
  openId: OpenIdGrant = {},
): IssueOptions {
  return {
    client,
    userId,
    scopes,
    audience,
    ttlSeconds: services.config.accessTokenTtlSeconds,
    refresh: { ttlSeconds: services.config.refreshTokenTtlSeconds, ...openId },
  };
}
