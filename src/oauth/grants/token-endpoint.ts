import { Users } from '../../auth/users.js';
import type { Clock } from '../../core/clock.js';
import type { TollgateConfig } from '../../core/config.js';
import { EventDispatcher } from '../../core/events.js';
import { ClockKey, ConfigKey } from '../../core/keys.js';
import { DpopProofs } from '../dpop/dpop-proofs.js';
import { TokenGranted } from '../events.js';
import { IdTokens } from '../oidc/id-tokens.js';
import { ProtectedResources } from '../protected-resources.js';
import type { ClientRecord } from '../records.js';
import { Scopes } from '../scopes.js';
import { type OAuthStore, OAuthStoreKey } from '../stores/contracts.js';
import { TokenIssuer, type TokenResponse } from '../tokens/token-issuer.js';
import { TokenRevoker } from '../tokens/token-revoker.js';
import { ClientAuthenticator } from './client-authenticator.js';
import type { Grant, GrantServices, TokenRequest } from './grant.js';
import { GrantRegistry } from './registry.js';
import { tokenPipeline } from './token-steps.js';

/** `POST /oauth/token` as the HTTP layer hands it over: the form is read by the pipeline's first step. */
export interface TokenInput {
  /** The form fields (RFC 6749 §3.2): form-encoded, no parameter twice, else `invalid_request`. */
  form(): Promise<Readonly<Record<string, string>>> | Readonly<Record<string, string>>;
  authorization?: string | undefined;
  /** RFC 9449: the `DPoP` header, and the method and URL the proof must name. */
  dpop?: { proof: string | undefined; method: string; url: string };
}

/** One token request as it moves through the steps; each step fills in what the next one reads. */
export interface TokenExchange {
  readonly input: TokenInput;
  request: TokenRequest;
  grant: Grant;
  client: ClientRecord;
  response: TokenResponse;
  /** RFC 9449: the thumbprint of the key a valid DPoP proof was signed with. */
  jkt?: string;
}

/** What the steps use. */
export interface TokenEndpointParts {
  readonly grants: GrantRegistry;
  readonly clients: ClientAuthenticator;
  readonly services: GrantServices;
  readonly dpop: DpopProofs;
}

export type TokenStep = (exchange: TokenExchange, parts: TokenEndpointParts) => void | Promise<void>;

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
    DpopProofs,
    EventDispatcher,
  ] as const;
  readonly #parts: TokenEndpointParts;
  readonly #events: EventDispatcher;

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
    dpop: DpopProofs,
    events: EventDispatcher,
  ) {
    this.#events = events;
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
    this.#parts = { grants, clients, services, dpop };
  }

  async handle(input: TokenInput): Promise<TokenResponse> {
    const exchange = { input } as TokenExchange;
    for (const step of tokenPipeline) {
      const pending = step(exchange, this.#parts);
      if (pending !== undefined) await pending;
    }
    if (this.#events.hasListeners(TokenGranted))
      await this.#events.dispatch(new TokenGranted(exchange.grant.grantType, exchange.client.id));
    return exchange.response;
  }
}
