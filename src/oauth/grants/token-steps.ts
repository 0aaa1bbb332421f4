import { NonceRequired, ProofRefused } from '../dpop/proof.js';
import { OAuthError } from '../errors.js';
import { clientHandlesGrant } from '../records.js';
import { checkClientScopes } from '../rules/check-client-scopes.js';
import { checkResource } from '../rules/check-resource.js';
import { Scopes } from '../scopes.js';
import type { TokenEndpointParts, TokenExchange, TokenStep } from './token-endpoint.js';

async function readForm(exchange: TokenExchange): Promise<void> {
  exchange.request = { params: await exchange.input.form(), authorization: exchange.input.authorization };
}

/** §5.2: `grant_type` present (`invalid_request`) and registered (`unsupported_grant_type`). */
function supportedGrantType(exchange: TokenExchange, { grants }: TokenEndpointParts): void {
  const grantType = exchange.request.params.grant_type;
  if (!grantType) throw OAuthError.invalidRequest('The request is missing the "grant_type" parameter.');
  const grant = grants.get(grantType);
  if (!grant) throw OAuthError.unsupportedGrantType(grantType);
  exchange.grant = grant;
}

/** §2.3.1, through the client authentication service (`invalid_client`). */
async function authenticateClient(exchange: TokenExchange, { clients }: TokenEndpointParts): Promise<void> {
  exchange.client = await clients.authenticate(exchange.request);
}

/** §5.2 `unauthorized_client`: the client is not registered for this grant type. */
function allowedGrantType({ client, grant }: TokenExchange): void {
  if (!clientHandlesGrant(client, grant.grantType))
    throw OAuthError.unauthorizedClient(`This client may not use the ${grant.grantType} grant.`);
}

/** §5.2 `invalid_scope`: a requested scope outside the client's own limit (its `scopes`). */
function allowedScopes({ client, request }: TokenExchange): void {
  checkClientScopes(client, Scopes.parse(request.params.scope));
}

/**
 * RFC 8707 §2 `invalid_target`: a `resource` that is not an absolute URI without a fragment, or
 * names no configured protected resource. Whether the grant covers it is the grant's check.
 */
function requestedResource({ request }: TokenExchange, { services }: TokenEndpointParts): void {
  checkResource(request.params.resource, services.resources);
}

/** The grant's required parameters (its `parameters`), else `invalid_request`. */
function grantParameters({ grant, request }: TokenExchange): void {
  for (const name of grant.parameters.required) {
    const value = request.params[name];
    if (value === undefined || value === '')
      throw OAuthError.invalidRequest(`The request is missing the "${name}" parameter.`);
  }
}

/**
 * RFC 9449 §5: a `DPoP` header must hold a valid proof for this request (`invalid_dpop_proof`),
 * with a current server nonce when nonces are on (§8, `use_dpop_nonce`); a client registered with
 * `dpop_bound_access_tokens` must send one (§5.2).
 */
async function dpopProof(exchange: TokenExchange, { dpop }: TokenEndpointParts): Promise<void> {
  const sent = exchange.input.dpop;
  if (sent?.proof === undefined) {
    if (exchange.client.dpopBoundAccessTokens)
      throw OAuthError.invalidRequest('This client must send a DPoP proof with its token requests.');
    return;
  }
  try {
    exchange.jkt = await dpop.check(sent.proof, { method: sent.method, url: sent.url });
  } catch (err) {
    if (err instanceof ProofRefused) throw OAuthError.invalidDpopProof(err.message);
    if (err instanceof NonceRequired) throw OAuthError.useDpopNonce(err.nonce, err.message);
    throw err;
  }
}

/** The grant's handler: its checks, then one `TokenIssuer.issue()` (DPoP-bound after a proof). */
async function runGrant(exchange: TokenExchange, { services }: TokenEndpointParts): Promise<void> {
  const params = exchange.request.params as Record<string, string>;
  const { client, jkt } = exchange;
  const issuing = jkt === undefined ? services : { ...services, issuer: services.issuer.boundTo(jkt) };
  exchange.response = await exchange.grant.handle({ client, params, dpopJkt: jkt }, issuing);
}

/** The token endpoint's steps, in order (node-oidc-provider's token action). */
export const tokenPipeline: readonly TokenStep[] = [
  readForm,
  supportedGrantType,
  authenticateClient,
  dpopProof,
  allowedGrantType,
  allowedScopes,
  requestedResource,
  grantParameters,
  runGrant,
];
