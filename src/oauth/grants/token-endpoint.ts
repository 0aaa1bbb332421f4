import { Users } from '../../auth/users.js';
import type { Clock } from '../../core/clock.js';
import type { TollgateConfig } from '../../core/config.js';
import { ClockKey, ConfigKey } from '../../core/keys.js';
import { OAuthError } from '../errors.js';
import { IdTokens } from '../oidc/id-tokens.js';
import { ProtectedResources } from '../protected-resources.js';
import { type ClientRecord, clientHandlesGrant } from '../records.js';
import { checkClientScopes } from '../rules/check-client-scopes.js';
import { checkResource } from '../rules/check-resource.js';
import { Scopes } from '../scopes.js';
import { type OAuthStore, OAuthStoreKey } from '../stores/contracts.js';
import { TokenIssuer, type TokenResponse } from '../tokens/token-issuer.js';
import { TokenRevoker } from '../tokens/token-revoker.js';
import { ClientAuthenticator } from './client-authenticator.js';
import type { Grant, GrantServices, TokenRequest } from './grant.js';
import { GrantRegistry } from './registry.js';

/** `POST /oauth/token` as the HTTP layer hands it over: the form is read by the pipeline's first step. */
export interface TokenInput {
  /** The form fields (RFC 6749 §3.2): form-encoded, no parameter twice, else `invalid_request`. */
  form(): Promise<Readonly<Record<string, string>>> | Readonly<Record<string, string>>;
  authorization?: string | undefined;
}

/** One token request as it moves through the steps; each step fills in what the next one reads. */
export interface TokenExchange {
  readonly input: TokenInput;
  request: TokenRequest;
  grant: Grant;
  client: ClientRecord;
  response: TokenResponse;
}

/** What the steps use. */
export interface TokenEndpointParts {
  readonly grants: GrantRegistry;
  readonly clients: ClientAuthenticator;
  readonly services: GrantServices;
}

export type TokenStep = (exchange: TokenExchange, parts: TokenEndpointParts) => void | Promise<void>;

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

/** The grant's handler: its checks, then one `TokenIssuer.issue()`. */
async function runGrant(exchange: TokenExchange, { services }: TokenEndpointParts): Promise<void> {
  const params = exchange.request.params as Record<string, string>;
  exchange.response = await exchange.grant.handle({ client: exchange.client, params }, services);
}

/** The token endpoint's steps, in order (node-oidc-provider's token action). */
export const tokenPipeline: readonly TokenStep[] = [
  readForm,
  supportedGrantType,
  authenticateClient,
  allowedGrantType,
  allowedScopes,
  requestedResource,
  grantParameters,
  runGrant,
];

/** `POST /oauth/token` without HTTP: runs `tokenPipeline`; a step refuses by throwing an `OAuthError`. */
export class TokenEndpoint {
  static inject = [
    GrantRegistry,
    ClientAuthenticator,
    OAuthStoreKey,
    TokenIssuer,
    TokenRevoker,
    Scopes,
    ClockKey,
    ConfigKey,
    Users,
    IdTokens,
    ProtectedResources,
  ] as const;
  readonly #parts: TokenEndpointParts;

  constructor(
    grants: GrantRegistry,
    clients: ClientAuthenticator,
    store: OAuthStore,
    issuer: TokenIssuer,
    revoker: TokenRevoker,
    scopes: Scopes,
    clock: Clock,
    config: TollgateConfig,
    users: Users,
    idTokens: IdTokens,
    resources: ProtectedResources,
  ) {
    const services = {
      store,
      issuer,
      revoker,
      scopes,
      clock,
      config: config.oauth,
      users,
      idTokens,
      resources,
    };
    this.#parts = { grants, clients, services };
  }

  async handle(input: TokenInput): Promise<TokenResponse> {
    const exchange = { input } as TokenExchange;
    for (const step of tokenPipeline) {
      const pending = step(exchange, this.#parts);
      if (pending !== undefined) await pending;
    }
    return exchange.response;
  }
}
