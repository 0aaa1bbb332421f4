import { AuthorizationService } from '../authorization/authorization-service.js';
import { DpopProofs } from '../dpop/dpop-proofs.js';
import { NonceRequired, ProofRefused } from '../dpop/proof.js';
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
  static inject = [ClientAuthenticator, AuthorizationService, PushedRequests, DpopProofs] as const;

  constructor(
    private readonly clients: ClientAuthenticator,
    private readonly authorization: AuthorizationService,
    private readonly pushed: PushedRequests,
    private readonly proofs: DpopProofs,
  ) {}

  async handle(input: TokenInput): Promise<PushedAuthorizationResponse> {
    const form = await input.form();
    const client = await this.clients.authenticate({ params: form, authorization: input.authorization });
    // RFC 9126 §2.1: a request_uri cannot itself be pushed.
    if (form.request_uri !== undefined)
      throw OAuthError.invalidRequest('The request_uri parameter cannot be pushed.');
    const parameters: Record<string, string> = { ...form, client_id: client.id };
    for (const name of CREDENTIALS) delete parameters[name];
    const jkt = await this.#proofKey(input);
    if (jkt !== undefined) {
      if (parameters.dpop_jkt !== undefined && parameters.dpop_jkt !== jkt)
        throw OAuthError.invalidDpopProof('the dpop_jkt parameter is not the proof key');
      parameters.dpop_jkt = jkt;
    }
    await this.authorization.validate(parameters);
    const { requestUri, expiresIn } = await this.pushed.push(client.id, parameters);
    return { request_uri: requestUri, expires_in: expiresIn };
  }

  /** RFC 9449 §10.1: a DPoP proof sent with the push binds the code to its key, as `dpop_jkt` does. */
  async #proofKey(input: TokenInput): Promise<string | undefined> {
    if (input.dpop?.proof === undefined) return undefined;
    try {
      return await this.proofs.check(input.dpop.proof, { method: input.dpop.method, url: input.dpop.url });
    } catch (err) {
      if (err instanceof ProofRefused) throw OAuthError.invalidDpopProof(err.message);
      if (err instanceof NonceRequired) throw OAuthError.useDpopNonce(err.nonce, err.message);
      throw err;
    }
  }
}
