import type { Clock } from '../../core/clock.js';
import type { TollgateConfig } from '../../core/config.js';
import { OAuthError } from '../errors.js';
import type { ClientRecord } from '../records.js';
import type { Scopes } from '../scopes.js';
import type { OAuthStore } from '../stores/contracts.js';
import type { TokenIssuer, TokenResponse } from '../tokens/token-issuer.js';
import type { TokenRevoker } from '../tokens/token-revoker.js';

/** A token request, free of HTTP: the form fields and the Authorization header. */
export interface TokenRequest {
  params: Readonly<Record<string, string | undefined>>;
  authorization?: string | undefined;
}

/** Resource-owner credentials for the password grant (the `Users` service fits). */
export interface UserCredentials {
  attempt(email: string, password: string): Promise<{ id: number } | undefined>;
}

/** What a grant may use. Built once by the token endpoint. */
export interface GrantContext {
  store: OAuthStore;
  issuer: TokenIssuer;
  revoker: TokenRevoker;
  scopes: Scopes;
  clock: Clock;
  config: TollgateConfig['oauth'];
  users: UserCredentials;
  /** Authenticates the client and checks it may use `grantType` (else `unauthorized_client`). */
  client(request: TokenRequest, grantType: string): Promise<ClientRecord>;
}

/** One grant type of the token endpoint (node-oidc-provider's `{ grantType, handler }` modules). */
export interface Grant {
  readonly grantType: string;
  handle(request: TokenRequest, context: GrantContext): Promise<TokenResponse>;
}

/** A required parameter, or `invalid_request`. */
export function required(request: TokenRequest, name: string): string {
  const value = request.params[name];
  if (value === undefined || value === '') {
    throw OAuthError.invalidRequest(`The request is missing the "${name}" parameter.`);
  }
  return value;
}
