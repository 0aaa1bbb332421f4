/**
 * The claims of a Tollgate access token: RFC 9068 §2.2 plus Passport's `scopes` array.
 * `sub` is the user id as a string, or the client id for a client_credentials token.
 */
export interface AccessTokenClaims {
  iss: string;
  sub: string;
  /**
   * The resource asked for with RFC 8707's `resource` (RFC 9068 §3); without one, the client id
   * (Passport's choice).
   */
  aud: string;
  client_id: string;
  /** The stored token's id: revocation looks it up. */
  jti: string;
  iat: number;
  exp: number;
  /** Space-delimited, as RFC 9068 §2.2.3 asks. */
  scope: string;
  scopes: string[];
  /** RFC 9449 §6.1: the DPoP key the token is bound to (its RFC 7638 thumbprint). */
  cnf?: { jkt: string };
  /** The organization the token acts for (a member's token, an organization's client); absent: none. */
  org_id?: number;
}

/** RFC 9068 §2.1: the JWT `typ` header of an access token. */
export const ACCESS_TOKEN_TYP = 'at+jwt';
