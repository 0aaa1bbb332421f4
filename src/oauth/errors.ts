import { HttpError } from '../core/errors.js';
import { DPOP_ALGORITHMS } from './dpop/proof.js';

/**
 * The error codes of RFC 6749 §4.1.2.1/§5.2, RFC 6750 §3.1, the device grant's RFC 8628 §3.5,
 * OpenID Connect Core §3.1.2.6, RFC 8707 §2 and RFC 7591 §3.2.2, the only ones an OAuth client sees.
 */
export type OAuthErrorCode =
  | 'invalid_request'
  | 'invalid_client'
  | 'invalid_grant'
  | 'unauthorized_client'
  | 'unsupported_grant_type'
  | 'invalid_scope'
  | 'access_denied'
  | 'unsupported_response_type'
  | 'invalid_token'
  | 'insufficient_scope'
  | 'server_error'
  | 'temporarily_unavailable'
  | 'authorization_pending'
  | 'slow_down'
  | 'expired_token'
  | 'login_required'
  | 'consent_required'
  | 'interaction_required'
  | 'request_not_supported'
  | 'request_uri_not_supported'
  | 'invalid_request_object'
  | 'invalid_request_uri'
  | 'invalid_target'
  | 'invalid_redirect_uri'
  | 'invalid_client_metadata'
  | 'invalid_dpop_proof'
  | 'use_dpop_nonce';

/** Exhaustive: adding a code without a status does not compile. */
export const oauthErrorStatus: Record<OAuthErrorCode, number> = {
  invalid_request: 400,
  // RFC 6749 §5.2: 401 when the client tried to authenticate (we always answer 401 with a challenge).
  invalid_client: 401,
  invalid_grant: 400,
  unauthorized_client: 400,
  unsupported_grant_type: 400,
  invalid_scope: 400,
  // §4.1.2.1 sends it in a redirect; at the token endpoint (RFC 8628 §3.5) it is a §5.2 error: 400.
  access_denied: 400,
  unsupported_response_type: 400,
  invalid_token: 401,
  insufficient_scope: 403,
  server_error: 500,
  temporarily_unavailable: 503,
  authorization_pending: 400,
  slow_down: 400,
  expired_token: 400,
  // OpenID Connect Core §3.1.2.6: `prompt=none` could not be answered silently. Always redirected.
  login_required: 400,
  consent_required: 400,
  interaction_required: 400,
  // OpenID Connect Core §3.1.2.6: request objects (`request`, or a `request_uri` that is not pushed).
  request_not_supported: 400,
  request_uri_not_supported: 400,
  // OpenID Connect Core §3.1.2.6: a request object that fails its checks, or a request_uri that
  // gives none.
  invalid_request_object: 400,
  invalid_request_uri: 400,
  // RFC 8707 §2: a `resource` that is not an absolute URI, has a fragment, or is not ours.
  invalid_target: 400,
  // RFC 7591 §3.2.2: dynamic registration refused a redirect URI, or another metadata value.
  invalid_redirect_uri: 400,
  invalid_client_metadata: 400,
  // RFC 9449 §5: a DPoP proof at the token endpoint that fails its checks.
  invalid_dpop_proof: 400,
  // RFC 9449 §8: the proof lacks the server's current nonce; the `DPoP-Nonce` header has it.
  use_dpop_nonce: 400,
};

/**
 * Why a protected resource refused its credentials (RFC 6750 §3.1). `missing`: the request carried
 * no bearer token (nor an acceptable app_token cookie), so its challenge has no error code.
 */
export type InvalidTokenReason =
  | 'missing'
  | 'invalid'
  | 'expired'
  | 'revoked'
  | 'unknown_user'
  | 'audience'
  | 'proof'
  | 'nonce'
  | 'bound';

const TOKEN_DESCRIPTIONS: Record<InvalidTokenReason, string> = {
  missing: 'The request has no access token.',
  invalid: 'The access token is invalid.',
  expired: 'The access token has expired.',
  revoked: 'The access token has been revoked.',
  unknown_user: 'The access token does not belong to a user.',
  audience: 'The access token is meant for another resource.',
  proof: 'The DPoP proof is invalid.',
  nonce: 'Resource server requires nonce in DPoP proof.',
  bound: 'The access token is bound to a DPoP key: send it with the DPoP scheme and a proof.',
};

/** The body of every 401 from a protected resource (Laravel's). */
export const UNAUTHENTICATED = 'Unauthenticated.';
/** Passport's message for a failed scope check. */
export const INVALID_SCOPES = 'Invalid scope(s) provided.';
const GENERIC = 'The server could not complete the request.';

export interface OAuthErrorOptions {
  /** Private: for logs only, never sent to a client. */
  detail?: string;
  /**
   * Whether the error may be sent back to the client's redirect_uri (RFC 6749 §4.1.2.1). False
   * when the client or the redirect URI itself is in doubt: those are shown to the user instead.
   */
  redirectable?: boolean;
  cause?: unknown;
  /** `invalid_token` only. */
  reason?: InvalidTokenReason;
  /** `insufficient_scope` only: the scopes the resource needs (RFC 6750 §3 `scope`). */
  scope?: string;
  /** `invalid_token` only: the request used the `DPoP` scheme, so the challenge does (RFC 9449 §7.1). */
  dpop?: boolean;
  /** Extra response headers (RFC 9449 §8: `DPoP-Nonce`). */
  headers?: Record<string, string>;
  /** Set by `invalidClient()` only. */
  clientAuthenticationFailed?: boolean;
}

/** `invalid_client`'s description when it says nothing more (an unknown client, a bad secret). */
export const CLIENT_AUTHENTICATION_FAILED = 'Client authentication failed.';

/**
 * The one OAuth error. `description` is public (`error_description`), `detail` private. It renders
 * itself (`getResponse()`, as Hono's `HTTPException`): RFC 6749 §5.2 JSON at the authorization
 * server's endpoints; at a protected resource (`invalid_token`, `insufficient_scope`) Laravel's
 * body with the RFC 6750 §3 `WWW-Authenticate` challenge. Always `Cache-Control: no-store`.
 *
 * @example throw OAuthError.invalidGrant('The authorization code has expired.')
 */
export class OAuthError extends HttpError {
  readonly code: OAuthErrorCode;
  readonly description: string;
  readonly detail: string | undefined;
  readonly redirectable: boolean;
  /** Set on `invalid_token`: what was wrong with the credentials. */
  readonly reason: InvalidTokenReason | undefined;
  /** `invalidClient()`: an unknown client or a bad secret, with nothing more to say. */
  readonly clientAuthenticationFailed: boolean;

  constructor(code: OAuthErrorCode, description: string, options: OAuthErrorOptions = {}) {
    const status = oauthErrorStatus[code];
    const text = status >= 500 ? GENERIC : errorDescription(description);
    const { body, challenge } = rendering(code, text, options);
    super(status, text, {
      body,
      headers: {
        'Cache-Control': 'no-store',
        Pragma: 'no-cache',
        ...(challenge ? { 'WWW-Authenticate': challenge } : {}),
        ...options.headers,
      },
      cause: options.cause,
    });
    this.name = 'OAuthError';
    this.code = code;
    this.description = text;
    this.detail = options.detail;
    this.redirectable = options.redirectable ?? false;
    this.reason = options.reason;
    this.clientAuthenticationFailed = options.clientAuthenticationFailed ?? false;
  }

  /** What a client sees, as JSON or as redirect parameters. */
  toJSON(): { error: OAuthErrorCode; error_description: string } {
    return { error: this.code, error_description: this.description };
  }

  static invalidRequest(description: string, options?: OAuthErrorOptions): OAuthError {
    return new OAuthError('invalid_request', description, options);
  }

  static invalidClient(detail?: string): OAuthError {
    return new OAuthError('invalid_client', CLIENT_AUTHENTICATION_FAILED, {
      detail,
      clientAuthenticationFailed: true,
    });
  }

  static invalidGrant(description: string, detail?: string): OAuthError {
    return new OAuthError('invalid_grant', description, { detail });
  }

  static invalidScope(description: string, options?: OAuthErrorOptions): OAuthError {
    return new OAuthError('invalid_scope', description, options);
  }

  static unauthorizedClient(description: string, options?: OAuthErrorOptions): OAuthError {
    return new OAuthError('unauthorized_client', description, options);
  }

  static unsupportedGrantType(grantType: string): OAuthError {
    return new OAuthError('unsupported_grant_type', 'The authorization grant type is not supported.', {
      detail: `grant_type=${grantType}`,
    });
  }

  static accessDenied(description = 'The resource owner denied the request.'): OAuthError {
    return new OAuthError('access_denied', description, { redirectable: true });
  }

  /** RFC 8628 §3.5: the user has not answered yet; the device polls again after its interval. */
  static authorizationPending(): OAuthError {
    return new OAuthError('authorization_pending', 'The user has not yet approved or denied the request.');
  }

  /** RFC 8628 §3.5: polled before the interval was over; the interval grows by 5 seconds. */
  static slowDown(): OAuthError {
    return new OAuthError('slow_down', 'Polling too fast: wait 5 seconds more between requests.');
  }

  /** RFC 8628 §3.5: the device code expired before it was redeemed; start a new request. */
  static expiredToken(): OAuthError {
    return new OAuthError('expired_token', 'The device code has expired.');
  }

  /** RFC 8707 §2: the requested `resource` is malformed, unknown, or outside what was granted. */
  static invalidTarget(description: string, options?: OAuthErrorOptions): OAuthError {
    return new OAuthError('invalid_target', description, options);
  }

  /** RFC 7591 §3.2.2: a registration's redirect URI is refused. */
  static invalidRedirectUri(description: string): OAuthError {
    return new OAuthError('invalid_redirect_uri', description);
  }

  /** RFC 7591 §3.2.2: a registration's metadata value is refused. */
  static invalidClientMetadata(description: string): OAuthError {
    return new OAuthError('invalid_client_metadata', description);
  }

  /** RFC 6750 §3.1 at a protected resource; the reason picks the public description. */
  static invalidToken(
    refusal: {
      reason: InvalidTokenReason;
      detail?: string;
      dpop?: boolean;
      headers?: Record<string, string>;
    } = { reason: 'invalid' },
  ): OAuthError {
    const reason = refusal?.reason ?? 'invalid';
    return new OAuthError('invalid_token', TOKEN_DESCRIPTIONS[reason], {
      reason,
      detail: refusal?.detail,
      dpop: refusal?.dpop,
      headers: refusal?.headers,
    });
  }

  /** RFC 9449 §8: the token endpoint wants a proof with this nonce (sent in `DPoP-Nonce`). */
  static useDpopNonce(nonce: string, detail: string): OAuthError {
    return new OAuthError('use_dpop_nonce', 'Authorization server requires nonce in DPoP proof.', {
      detail,
      headers: { 'DPoP-Nonce': nonce },
    });
  }

  /** RFC 9449 §5: the token request's DPoP proof failed a check (which one goes to the logs). */
  static invalidDpopProof(detail: string): OAuthError {
    return new OAuthError('invalid_dpop_proof', 'The DPoP proof is invalid.', { detail });
  }

  /** RFC 6750 §3.1: the token lacks every (`all`) or any (`any`) of the scopes a route needs. */
  static insufficientScope(
    required: string | readonly string[] = [],
    mode: 'all' | 'any' = 'all',
  ): OAuthError {
    const description =
      mode === 'any'
        ? 'The access token has none of the accepted scopes.'
        : 'The access token lacks a required scope.';
    return new OAuthError('insufficient_scope', description, { scope: [required].flat().join(' ') });
  }

  /** OpenID Connect Core §3.1.2.6, `prompt=none`: the user must log in (again) first. */
  static loginRequired(): OAuthError {
    return new OAuthError('login_required', 'The user must log in.', { redirectable: true });
  }

  /** OpenID Connect Core §3.1.2.6, `prompt=none`: the user must approve the request first. */
  static consentRequired(): OAuthError {
    return new OAuthError('consent_required', 'The user must approve the request.', { redirectable: true });
  }

  /** OpenID Connect Core §3.1.2.6, `prompt=none`: some other page would have to be shown. */
  static interactionRequired(): OAuthError {
    return new OAuthError('interaction_required', 'The user must interact with the server.', {
      redirectable: true,
    });
  }

  /** OpenID Connect Core §3.1.2.6: a request object by value (`request`), which Tollgate does not read. */
  static requestNotSupported(): OAuthError {
    return new OAuthError(
      'request_not_supported',
      'Request objects are not supported: send the parameters themselves.',
      { redirectable: true },
    );
  }

  /** OpenID Connect Core §3.1.2.6: a `request_uri` other than a pushed request's (RFC 9126). */
  static requestUriNotSupported(): OAuthError {
    return new OAuthError(
      'request_uri_not_supported',
      'Only the request_uri of a pushed authorization request is supported.',
      { redirectable: true },
    );
  }

  /** RFC 6749 §5.2 has no code for it at the token endpoint; `temporarily_unavailable` says "try again". */
  static temporarilyUnavailable(detail: string, retryAfterSeconds: number, cause?: unknown): OAuthError {
    return new OAuthError('temporarily_unavailable', 'The server is temporarily unavailable: try again.', {
      detail,
      cause,
      headers: { 'Retry-After': String(retryAfterSeconds) },
    });
  }

  static serverError(detail: string, cause?: unknown): OAuthError {
    return new OAuthError('server_error', GENERIC, { detail, cause });
  }
}

/**
 * RFC 6749 §4.1.2.1/§5.2: `error_description` is %x20-21 / %x23-5B / %x5D-7E, printable ASCII
 * without `"` and `\`. Our texts quote names with "…", which go out as '…'; anything else outside
 * the set is dropped, so no description can carry a control character, or a quote into a header.
 * Descriptions are fixed texts: what a request sent goes in `detail`, for the logs.
 */
function errorDescription(text: string): string {
  return text.replace(/"/g, "'").replace(/[^\x20-\x21\x23-\x5B\x5D-\x7E]/g, '');
}

/** The body and challenge of each kind of error: the one place they are decided. */
function rendering(
  code: OAuthErrorCode,
  description: string,
  options: OAuthErrorOptions,
): { body: Record<string, unknown>; challenge: string | undefined } {
  switch (code) {
    case 'invalid_token':
      if (options.dpop || options.reason === 'proof' || options.reason === 'nonce')
        return { body: { message: UNAUTHENTICATED }, challenge: dpopChallenge(options.reason, description) };
      // §3.1: a request without credentials gets a bare challenge, "SHOULD NOT include an error code".
      return {
        body: { message: UNAUTHENTICATED },
        challenge:
          options.reason === 'missing'
            ? 'Bearer'
            : `Bearer error="invalid_token", error_description="${description}"`,
      };
    case 'insufficient_scope': {
      const scope = options.scope ?? '';
      return {
        body: { message: INVALID_SCOPES, error: code, error_description: description, scope },
        challenge: `Bearer error="insufficient_scope", error_description="${description}", scope="${scope}"`,
      };
    }
    case 'invalid_client':
      return { body: { error: code, error_description: description }, challenge: 'Basic realm="oauth"' };
    default:
      return { body: { error: code, error_description: description }, challenge: undefined };
  }
}

/** RFC 9449 §7.1: the `DPoP` challenge, with the proof algorithms accepted. */
function dpopChallenge(reason: InvalidTokenReason | undefined, description: string): string {
  const algs = `algs="${DPOP_ALGORITHMS.join(' ')}"`;
  if (reason === 'missing') return `DPoP ${algs}`;
  const error =
    reason === 'proof' ? 'invalid_dpop_proof' : reason === 'nonce' ? 'use_dpop_nonce' : 'invalid_token';
  return `DPoP error="${error}", error_description="${description}", ${algs}`;
}
