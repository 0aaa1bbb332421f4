import { HttpError } from '../core/errors.js';

/** The error codes of RFC 6749 §4.1.2.1/§5.2 and RFC 6750 §3.1, the only ones an OAuth client sees. */
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
  | 'temporarily_unavailable';

/** Exhaustive: adding a code without a status does not compile. */
export const oauthErrorStatus: Record<OAuthErrorCode, number> = {
  invalid_request: 400,
  // RFC 6749 §5.2: 401 when the client tried to authenticate (we always answer 401 with a challenge).
  invalid_client: 401,
  invalid_grant: 400,
  unauthorized_client: 400,
  unsupported_grant_type: 400,
  invalid_scope: 400,
  access_denied: 403,
  unsupported_response_type: 400,
  invalid_token: 401,
  insufficient_scope: 403,
  server_error: 500,
  temporarily_unavailable: 503,
};

export interface OAuthErrorOptions {
  /** Private: for logs only, never sent to a client. */
  detail?: string;
  /**
   * Whether the error may be sent back to the client's redirect_uri (RFC 6749 §4.1.2.1). False
   * when the client or the redirect URI itself is in doubt: those are shown to the user instead.
   */
  redirectable?: boolean;
  headers?: Record<string, string>;
  cause?: unknown;
}

/**
 * The one OAuth error. `description` is public (`error_description`), `detail` private.
 *
 * @example throw OAuthError.invalidGrant('The authorization code has expired.')
 */
export class OAuthError extends HttpError {
  readonly code: OAuthErrorCode;
  readonly description: string;
  readonly detail: string | undefined;
  readonly redirectable: boolean;

  constructor(code: OAuthErrorCode, description: string, options: OAuthErrorOptions = {}) {
    const status = oauthErrorStatus[code];
    const publicDescription = status >= 500 ? 'The server could not complete the request.' : description;
    super(status, publicDescription, {
      body: { error: code, error_description: publicDescription },
      headers: { 'Cache-Control': 'no-store', Pragma: 'no-cache', ...options.headers },
      cause: options.cause,
    });
    this.name = 'OAuthError';
    this.code = code;
    this.description = publicDescription;
    this.detail = options.detail;
    this.redirectable = options.redirectable ?? false;
  }

  /** What a client sees, as JSON or as redirect parameters. */
  toJSON(): { error: OAuthErrorCode; error_description: string } {
    return { error: this.code, error_description: this.description };
  }

  static invalidRequest(description: string, options?: OAuthErrorOptions): OAuthError {
    return new OAuthError('invalid_request', description, options);
  }

  static invalidClient(detail?: string): OAuthError {
    return new OAuthError('invalid_client', 'Client authentication failed.', {
      detail,
      headers: { 'WWW-Authenticate': 'Basic realm="oauth"' },
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

  static invalidToken(description = 'The access token is invalid.', detail?: string): OAuthError {
    return new OAuthError('invalid_token', description, {
      detail,
      headers: { 'WWW-Authenticate': `Bearer error="invalid_token", error_description="${description}"` },
    });
  }

  static serverError(detail: string, cause?: unknown): OAuthError {
    return new OAuthError('server_error', 'The server could not complete the request.', { detail, cause });
  }
}
