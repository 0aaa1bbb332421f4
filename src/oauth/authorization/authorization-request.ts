import type { TollgateConfig } from '../../core/config.js';
import { OAuthError } from '../errors.js';
import {
  type ClaimsRequest,
  claimsWithin,
  parseClaimsRequest,
  scopesOfClaims,
} from '../oidc/claims-request.js';
import { OPENID } from '../oidc/scopes.js';
import { type ClientRecord, clientHandlesGrant, isPublicClient } from '../records.js';
import { checkClientScopes } from '../rules/check-client-scopes.js';
import { type CodeChallengeMethod, checkCodeChallenge } from '../rules/check-pkce.js';
import { redirectUriMatches } from '../rules/check-redirect-uri.js';
import { checkResource, type KnownResources } from '../rules/check-resource.js';
import { Scopes } from '../scopes.js';
import type { ClientStore } from '../stores/contracts.js';
import { checkOpenIdParameters, type OpenIdParameters } from './openid-parameters.js';

export type ResponseType = 'code' | 'token';
/** How the response reaches the client: OAuth 2.0 Multiple Response Types §2.1, Form Post §2. */
export type ResponseMode = 'query' | 'fragment' | 'form_post';

/** A validated authorization request, waiting for the user's decision. Plain data (it lives in the session). */
export interface AuthorizationRequest extends OpenIdParameters {
  clientId: string;
  redirectUri: string;
  responseType: ResponseType;
  /** `form_post`, or absent for the response type's default (query for a code, fragment for a token). */
  responseMode?: ResponseMode;
  scopes: string[];
  state: string | null;
  codeChallenge: string | null;
  codeChallengeMethod: CodeChallengeMethod | null;
  /** RFC 8707: the protected resource the tokens are for; null or absent (a request kept in a session from before): none named. */
  resource?: string | null;
  /** RFC 9449 §10 `dpop_jkt`: the code goes only to a token request with a proof by this key. */
  dpopJkt?: string | null;
  /** OpenID Connect Core §5.5: the claims the client asked for by name; null or absent: none. */
  claims?: ClaimsRequest | null;
}

/**
 * What the user approves: the requested scopes and, for claims asked for by name (Core §5.5), the
 * scopes that cover them.
 */
export function approvalScopes(request: AuthorizationRequest): string[] {
  const more = scopesOfClaims(request.claims).filter((scope) => !request.scopes.includes(scope));
  return [...request.scopes, ...more];
}

/**
 * An error the user must see instead of a redirect: the client or its redirect URI cannot be
 * trusted (RFC 6749 §4.1.2.1, RFC 9700 §4.11.2 — never an open redirector).
 */
export interface AuthorizationFailure {
  error: OAuthError;
  /** Set when the error may go back to the client. */
  redirect?: RedirectTarget;
}

/** Where and how an authorization response goes back to the client. */
export interface RedirectTarget {
  uri: string;
  responseType: ResponseType;
  responseMode?: ResponseMode;
  state: string | null;
}

/**
 * RFC 6749 §4.1.1/§4.2.1 validation, in order: client, redirect URI (both shown, never
 * redirected), then response type, PKCE, scopes, the RFC 8707 `resource` and the OpenID Connect
 * parameters (sent back to the client).
 */
export async function validateAuthorizationRequest(
  query: Readonly<Record<string, string | undefined>>,
  deps: {
    clients: Pick<ClientStore, 'find'>;
    scopes: Scopes;
    config: TollgateConfig['oauth'];
    resources: KnownResources;
  },
): Promise<{ request: AuthorizationRequest; client: ClientRecord }> {
  const clientId = query.client_id;
  if (!clientId) throw OAuthError.invalidRequest('The request is missing the "client_id" parameter.');
  const client = await deps.clients.find(clientId);
  if (!client || client.revoked) throw OAuthError.invalidClient(`unknown client ${clientId}`);
  const redirectUri = query.redirect_uri;
  if (!redirectUri) throw OAuthError.invalidRequest('The request is missing the "redirect_uri" parameter.');
  if (!redirectUriMatches(client, redirectUri)) {
    throw OAuthError.invalidRequest('The redirect_uri does not match the one registered for this client.', {
      detail: `client ${client.id}: ${redirectUri}`,
    });
  }
  // Core §6: a request object would hold the parameters; Tollgate reads plain ones only (a pushed
  // request's request_uri was resolved before this).
  if (query.request !== undefined) throw OAuthError.requestNotSupported();
  if (query.request_uri !== undefined) throw OAuthError.requestUriNotSupported();
  const state = query.state ?? null;
  const responseType = query.response_type;
  const back = { redirectable: true } as const;
  if (!responseType)
    throw OAuthError.invalidRequest('The request is missing the "response_type" parameter.', back);
  if (responseType !== 'code' && !(responseType === 'token' && deps.config.implicitGrant)) {
    throw new OAuthError('unsupported_response_type', 'The response type is not supported.', back);
  }
  const responseMode = checkResponseMode(query.response_mode, responseType);
  const grant = responseType === 'code' ? 'authorization_code' : 'implicit';
  if (!clientHandlesGrant(client, grant)) {
    throw OAuthError.unauthorizedClient('This client may not use this response type.', back);
  }
  const pkce =
    responseType === 'code'
      ? checkCodeChallenge(
          { codeChallenge: query.code_challenge, codeChallengeMethod: query.code_challenge_method },
          { publicClient: isPublicClient(client), allowPlain: deps.config.allowPlainPkce },
        )
      : undefined;
  const scopes = deps.scopes.validate(Scopes.parse(query.scope), { allowAll: false, redirectable: true });
  checkClientScopes(client, scopes, { redirectable: true });
  const resource = checkResource(query.resource, deps.resources, { redirectable: true });
  const openId = checkOpenIdParameters(query);
  // Core §5.5: a parameter of OpenID Connect requests, within the client's own scope limit.
  const claims = scopes.includes(OPENID) ? parseClaimsRequest(query.claims) : undefined;
  const dpopJkt = query.dpop_jkt ?? null;
  // A JWK SHA-256 thumbprint (RFC 7638): 43 base64url characters.
  if (dpopJkt !== null && !/^[A-Za-z0-9_-]{43}$/.test(dpopJkt)) {
    throw OAuthError.invalidRequest('The dpop_jkt parameter is not a JWK SHA-256 thumbprint.', back);
  }
  return {
    client,
    request: {
      clientId: client.id,
      redirectUri,
      responseType,
      ...(responseMode === 'form_post' ? { responseMode } : {}),
      scopes,
      state,
      codeChallenge: pkce?.codeChallenge ?? null,
      codeChallengeMethod: pkce?.codeChallengeMethod ?? null,
      resource,
      dpopJkt,
      ...(claims ? { claims: claimsWithin(claims, client.allowedScopes) } : {}),
      ...openId,
    },
  };
}

/**
 * Where a redirectable error goes: `null` when the error must be shown instead. Call it only
 * after the client and redirect URI checked out, i.e. with the query's own values.
 */
export function errorRedirectTarget(
  error: OAuthError,
  query: Readonly<Record<string, string | undefined>>,
): RedirectTarget | null {
  if (!error.redirectable || !query.redirect_uri) return null;
  return {
    ...(query.response_mode === 'form_post' ? { responseMode: 'form_post' as const } : {}),
    uri: query.redirect_uri,
    // An unsupported response type gets the default query encoding (RFC 6749 §4.1.2.1).
    responseType:
      query.response_type === 'token' && error.code !== 'unsupported_response_type' ? 'token' : 'code',
    state: query.state ?? null,
  };
}

/**
 * The `response_mode` (OAuth 2.0 Multiple Response Types §2.1): the response type's default, or
 * `form_post` (Form Post Response Mode §2). Asking for a code in the fragment or a token in the
 * query is refused: a token must never reach a server's logs through a query string.
 */
function checkResponseMode(mode: string | undefined, responseType: ResponseType): ResponseMode {
  const natural = responseType === 'code' ? 'query' : 'fragment';
  if (mode === undefined || mode === natural || mode === 'form_post') return mode ?? natural;
  throw OAuthError.invalidRequest(`The response_mode must be ${natural} or form_post.`, {
    redirectable: true,
  });
}
