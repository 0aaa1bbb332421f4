import { Users } from '../../auth/users.js';
import type { Clock } from '../../core/clock.js';
import type { TollgateConfig } from '../../core/config.js';
import { EventDispatcher } from '../../core/events.js';
import { ClockKey, ConfigKey } from '../../core/keys.js';
import { OAuthError } from '../errors.js';
import { ClientRevoked } from '../events.js';
import { type ClientRecord, clientHandlesGrant } from '../records.js';
import { authenticateClient } from '../rules/authenticate-client.js';
import { Scopes } from '../scopes.js';
import { type ClientStore, type OAuthStore, OAuthStoreKey } from '../stores/contracts.js';
import { TokenIssuer, type TokenResponse } from '../tokens/token-issuer.js';
import { TokenRevoker } from '../tokens/token-revoker.js';
import type { GrantContext, TokenRequest } from './grant.js';
import { GrantRegistry } from './registry.js';

/** `POST /oauth/token` without HTTP: picks the grant by `grant_type` and runs it. */
export class TokenEndpoint {
  static inject = [
    GrantRegistry,
    OAuthStoreKey,
    TokenIssuer,
    TokenRevoker,
    Scopes,
    ClockKey,
    ConfigKey,
    Users,
    EventDispatcher,
  ] as const;
  readonly #context: GrantContext;
  readonly #clients: ClientCache;

  constructor(
    private readonly grants: GrantRegistry,
    store: OAuthStore,
    issuer: TokenIssuer,
    revoker: TokenRevoker,
    scopes: Scopes,
    clock: Clock,
    config: TollgateConfig,
    users: Users,
    events: EventDispatcher,
  ) {
    this.#clients = new ClientCache(store.clients);
    // Revocation on this instance is seen at once; elsewhere within CLIENT_CACHE_MS (and the
    // guard refuses tokens of a revoked client anyway).
    events.listen(ClientRevoked, (event) => this.#clients.forget(event.clientId));
    const clients = this.#clients;
    this.#context = {
      store,
      issuer,
      revoker,
      scopes,
      clock,
      config: config.oauth,
      users,
      client: async (request, grantType) => {
        const client = await clients.authenticate(request);
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

const CLIENT_CACHE_MS = 5_000;
const CLIENT_CACHE_SIZE = 10_000;

/**
 * Live clients by id for a few seconds: the token endpoint then costs one insert and one
 * signature. A client's secret never changes, and revocation is forgotten at once here.
 */
class ClientCache implements Pick<ClientStore, 'find'> {
  readonly #entries = new Map<string, { client: ClientRecord; until: number }>();
  /**
   * Authorization headers that authenticated a client, so a client presenting the same Basic
   * credentials again skips the decode and the hash. Only an exact, verified header hits; the entry
   * is honoured while its client is the one cached (so `forget` and expiry drop it too).
   */
  readonly #verified = new Map<string, ClientRecord>();

  constructor(private readonly store: ClientStore) {}

  /** Wall-clock (monotonic) time: the cache is an operational detail, not domain time. */
  async find(id: string): Promise<ClientRecord | undefined> {
    const now = performance.now();
    const hit = this.#entries.get(id);
    if (hit && hit.until > now) return hit.client;
    const client = await this.store.find(id);
    if (client && !client.revoked) {
      if (this.#entries.size >= CLIENT_CACHE_SIZE) this.#entries.clear();
      this.#entries.set(id, { client, until: now + CLIENT_CACHE_MS });
    } else {
      this.#entries.delete(id);
    }
    return client;
  }

  async authenticate(request: TokenRequest): Promise<ClientRecord> {
    const header = request.authorization;
    const plain = request.params.client_id === undefined && request.params.client_secret === undefined;
    if (header && plain) {
      const known = this.#verified.get(header);
      if (known) {
        const hit = this.#entries.get(known.id);
        if (hit && hit.client === known && hit.until > performance.now()) return known;
        this.#verified.delete(header);
      }
    }
    const client = await authenticateClient(this, request);
    if (header && plain && client.secretHash !== null && this.#entries.get(client.id)?.client === client) {
      if (this.#verified.size >= CLIENT_CACHE_SIZE) this.#verified.clear();
      this.#verified.set(header, client);
    }
    return client;
  }

  forget(id: string): void {
    this.#entries.delete(id);
  }
}
