import { AuthorizationService } from '../authorization/authorization-service.js';
import { OAuthError } from '../errors.js';
import { ClientAuthenticator } from '../grants/client-authenticator.js';
import type { TokenInput } from '../grants/token-endpoint.js';
import { PushedRequests } from './pushed-requests.js';

/** The pushed authorization response (RFC 9126 §2.2). */
export interface PushedAuthorizationResponse {
  request_uri: string;
  expires_in: number;
}

/** Client credentials: they authenticate the push and are never part of the authorization request. */
const CREDENTIALS = ['client_secret', 'client_assertion', 'client_assertion_type'];

/**
 * `POST /oauth/par` without HTTP (RFC 9126 §2): the client authenticates as at the token
 * endpoint, and the body is an authorization request, validated as the authorization endpoint
 * validates one, then stored for its `request_uri`.
 */
export class PushedAuthorizationEndpoint {
  static inject = [ClientAuthenticator, AuthorizationService, PushedRequests] as const;

  constructor(
    private readonly clients: ClientAuthenticator,
    private readonly authorization: AuthorizationService,
    private readonly pushed: PushedRequests,
  ) {}

  async handle(input: TokenInput): Promise<PushedAuthorizationResponse> {
    const form = await input.form();
    const client = await this.clients.authenticate({ params: form, authorization: input.authorization });
    // RFC 9126 §2.1: a request_uri cannot itself be pushed.
    if (form.request_uri !== undefined)
      throw OAuthError.invalidRequest('The request_uri parameter cannot be pushed.');
    const parameters: Record<string, string> = { ...form, client_id: client.id };
    for (const name of CREDENTIALS) delete parameters[name];
    await this.authorization.validate(parameters);
    const { requestUri, expiresIn } = await this.pushed.push(client.id, parameters);
    return { request_uri: requestUri, expires_in: expiresIn };
  }
}
