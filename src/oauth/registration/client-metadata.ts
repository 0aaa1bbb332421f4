import { hasControlCharacters } from '../../core/text.js';
import type { ClientExtras } from '../clients/client-metadata-store.js';
import { OAuthError } from '../errors.js';
import type { LogoutSettings } from '../logout/client-logout.js';
import { DEVICE_CODE_GRANT } from '../records.js';
import { redirectProblem } from '../rules/check-redirect-uri.js';
import { ALL_SCOPES, Scopes } from '../scopes.js';
import { checkClientExtras } from './client-extras.js';

export type AuthMethod = 'none' | 'client_secret_basic' | 'client_secret_post' | 'private_key_jwt';
const AUTH_METHODS: readonly string[] = [
  'none',
  'client_secret_basic',
  'client_secret_post',
  'private_key_jwt',
];

/** The grants a registered client may name; never the password grant (first-party only). */
const REGISTRABLE_GRANTS: readonly string[] = [
  'authorization_code',
  'refresh_token',
  'client_credentials',
  DEVICE_CODE_GRANT,
];

/** RFC 7591 §2 client metadata, checked and with its defaults filled in. */
export interface ClientMetadata {
  clientName: string;
  redirectUris: string[];
  grantTypes: string[];
  responseTypes: string[];
  authMethod: AuthMethod;
  /** The scopes the client may ask for; null: any. */
  scopes: string[] | null;
  /** RP-Initiated Logout §3.1 and Back-Channel Logout §2.2. */
  logout: LogoutSettings;
  /** Pages, keys and OpenID algorithms (`checkClientExtras`). */
  extras: ClientExtras;
}

export interface MetadataLimits {
  scopes: Scopes;
  maxRedirects: number;
  /** The server's signing algorithm: the only `userinfo_signed_response_alg` it can honour. */
  signingAlgorithm: string;
}

const metadataError = (description: string) => OAuthError.invalidClientMetadata(description);

function stringList(value: unknown, field: string): string[] | undefined {
  if (value === undefined) return undefined;
  if (!Array.isArray(value) || !value.every((item) => typeof item === 'string')) {
    throw metadataError(`The ${field} field must be an array of strings.`);
  }
  return value;
}

/**
 * RFC 7591 §2 and §3.2.2: the registration request's metadata, or `invalid_redirect_uri` /
 * `invalid_client_metadata`. Unknown fields are ignored (§2). Defaults: `client_secret_basic`,
 * `grant_types` `["authorization_code"]`, `response_types` `["code"]` with it. Redirect URIs follow
 * the client rules (RFC 8252 §7 for public clients: loopback http, private-use schemes).
 */
export function checkClientMetadata(body: unknown, limits: MetadataLimits): ClientMetadata {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw metadataError('The request body must be a JSON object.');
  }
  const input = body as Record<string, unknown>;

  const authMethod = input.token_endpoint_auth_method ?? 'client_secret_basic';
  if (typeof authMethod !== 'string' || !AUTH_METHODS.includes(authMethod)) {
    throw metadataError(
      'The token_endpoint_auth_method must be none, client_secret_basic, client_secret_post or private_key_jwt.',
    );
  }
  const publicClient = authMethod === 'none';

  const grantTypes = stringList(input.grant_types, 'grant_types') ?? ['authorization_code'];
  if (grantTypes.length === 0 || !grantTypes.every((grant) => REGISTRABLE_GRANTS.includes(grant))) {
    throw metadataError(
      'The grant_types may only name authorization_code, refresh_token, client_credentials and the device grant.',
    );
  }
  if (publicClient && grantTypes.includes('client_credentials')) {
    throw metadataError('A client without a secret may not use client_credentials.');
  }
  const usesCode = grantTypes.includes('authorization_code');
  const responseTypes = stringList(input.response_types, 'response_types') ?? (usesCode ? ['code'] : []);
  // RFC 7591 §2.1: the response types and grant types must agree.
  if (responseTypes.some((type) => type !== 'code') || responseTypes.includes('code') !== usesCode) {
    throw metadataError('The response_types must be ["code"] with the authorization_code grant, else empty.');
  }

  const redirectUris = stringList(input.redirect_uris, 'redirect_uris') ?? [];
  if (usesCode && redirectUris.length === 0) {
    throw OAuthError.invalidRedirectUri('The authorization_code grant needs at least one redirect URI.');
  }
  if (redirectUris.length > limits.maxRedirects) {
    throw OAuthError.invalidRedirectUri(
      `A client may register at most ${limits.maxRedirects} redirect URIs.`,
    );
  }
  for (const uri of redirectUris) {
    // Stored as a comma-separated list, as every client's redirects are.
    const problem = uri.includes(',')
      ? 'A redirect URI may not contain a comma.'
      : redirectProblem(uri, { publicClient });
    if (problem) throw OAuthError.invalidRedirectUri(problem);
  }

  const name = input.client_name ?? 'Unnamed client';
  if (typeof name !== 'string' || name.trim() === '' || name.length > 255 || hasControlCharacters(name)) {
    throw metadataError('The client_name must be 1 to 255 characters without control characters.');
  }

  let scopes: string[] | null = null;
  if (input.scope !== undefined) {
    if (typeof input.scope !== 'string') throw metadataError('The scope field must be a string.');
    scopes = Scopes.parse(input.scope);
    if (scopes.length > 100 || !scopes.every((scope) => scope !== ALL_SCOPES && limits.scopes.has(scope))) {
      throw metadataError('The scope may only name scopes this server defines.');
    }
  }

  return {
    logout: checkLogoutMetadata(input, { publicClient, maxRedirects: limits.maxRedirects }),
    extras: checkClientExtras(input, authMethod, limits.signingAlgorithm),
    clientName: name.trim(),
    redirectUris,
    grantTypes: [...new Set(grantTypes)],
    responseTypes,
    authMethod: authMethod as AuthMethod,
    scopes,
  };
}

/**
 * `post_logout_redirect_uris` (RP-Initiated Logout §3.1: redirect URIs by the same rules),
 * `backchannel_logout_uri` (Back-Channel Logout §2.2: an absolute http(s) URL without a fragment)
 * and `backchannel_logout_session_required`.
 */
export function checkLogoutMetadata(
  input: Record<string, unknown>,
  rules: { publicClient: boolean; maxRedirects: number },
): LogoutSettings {
  const uris = stringList(input.post_logout_redirect_uris, 'post_logout_redirect_uris') ?? [];
  if (uris.length > rules.maxRedirects) {
    throw metadataError(`A client may register at most ${rules.maxRedirects} post_logout_redirect_uris.`);
  }
  for (const uri of uris) {
    const problem = redirectProblem(uri, { publicClient: rules.publicClient });
    if (problem) throw metadataError(`post_logout_redirect_uris: ${problem}`);
  }
  const backchannel = input.backchannel_logout_uri;
  if (backchannel !== undefined && !isBackchannelUri(backchannel)) {
    throw metadataError(
      'The backchannel_logout_uri must be an absolute http or https URL without a fragment.',
    );
  }
  const sessionRequired = input.backchannel_logout_session_required ?? false;
  if (typeof sessionRequired !== 'boolean') {
    throw metadataError('The backchannel_logout_session_required field must be a boolean.');
  }
  return {
    postLogoutRedirectUris: uris,
    backchannelLogoutUri: (backchannel as string | undefined) ?? null,
    backchannelLogoutSessionRequired: sessionRequired,
  };
}

function isBackchannelUri(value: unknown): boolean {
  if (typeof value !== 'string' || value.length > 2048) return false;
  try {
    const url = new URL(value);
    return (url.protocol === 'https:' || url.protocol === 'http:') && url.hash === '' && !value.includes('#');
  } catch {
    return false;
  }
}
