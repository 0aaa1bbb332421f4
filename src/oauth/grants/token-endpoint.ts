import { Users } from '../../auth/users.js';
import type { Clock } from '../../foundation/clock.js';
import type { TollgateConfig } from '../../foundation/config.js';
import { ClockToken, ConfigToken } from '../../foundation/tokens.js';
import { OAuthError } from '../errors.js';
import { clientHandlesGrant } from '../records.js';
import { authenticateClient } from '../rules/authenticate-client.js';
import { Scopes } from '../scopes.js';
import { type OAuthStore, OAuthStoreToken } from '../stores/contracts.js';
import { TokenIssuer, type TokenResponse } from '../tokens/token-issuer.js';
import { TokenRevoker } from '../tokens/token-revoker.js';
import type { GrantContext, TokenRequest } from './grant.js';
import { GrantRegistry } from './registry.js';

/** `POST /oauth/token` without HTTP: picks the grant by `grant_type` and runs it. */
export class TokenEndpoint {
  static inject = [
    GrantRegistry,
    OAuthStoreToken,
    TokenIssuer,
    TokenRevoker,
    Scopes,
    ClockToken,
    ConfigToken,
    Users,
  ] as const;
  readonly #context: GrantContext;

  constructor(
    private readonly grants: GrantRegistry,
    store: OAuthStore,
    issuer: TokenIssuer,
    revoker: TokenRevoker,
    scopes: Scopes,
    clock: Clock,
    config: TollgateConfig,
    users: Users,
  ) {
    this.#context = {
      store,
      issuer,
      revoker,
      scopes,
      clock,
      config: config.oauth,
      users,
      client: async (request, grantType) => {
        const client = await authenticateClient(store.clients, request);
        if (!clientHandlesGrant(client, grantType)) {
          throw OAuthError.unauthorizedClient(`This client may not use the ${grantType} grant.`);
        }
        return client;
      },
    };
  }

  async handle(request: TokenRequest): Promise<TokenResponse> {
    const grantType = request.params.grant_type;
    if (!grantType) throw OAuthError.invalidRequest('The request is missing the "grant_type" parameter.');
    const grant = this.grants.get(grantType);
    if (!grant) throw OAuthError.unsupportedGrantType(grantType);
    return grant.handle(request, this.#context);
  }
}
