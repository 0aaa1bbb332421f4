import type { Clock } from '../../core/clock.js';
import { EventDispatcher } from '../../core/events.js';
import { ClockKey } from '../../core/keys.js';
import { MetadataDocumentClients } from '../cimd/metadata-document-clients.js';
import { OAuthError } from '../errors.js';
import { ClientRevoked, ClientSecretRotated } from '../events.js';
import type { ClientRecord } from '../records.js';
import { authenticateClient, type ClientCredentialsInput } from '../rules/authenticate-client.js';
import type { ClientStore } from '../stores/contracts.js';
import { ClientAssertions } from './client-assertions.js';

const CLIENT_CACHE_MS = 5_000;
const CLIENT_CACHE_SIZE = 10_000;

/**
 * Client authentication for the token endpoint (RFC 6749 §2.3.1, by `authenticateClient`, or a
 * `private_key_jwt` assertion, RFC 7523, by `ClientAssertions`), over
 * a few seconds' cache of live clients: issuance then costs one insert and one signature. A
 * revocation or a secret rotation on this instance is forgotten at once (on other instances
 * within `CLIENT_CACHE_MS`; the guard refuses a revoked client's tokens anyway).
 */
export class ClientAuthenticator {
  static inject = [MetadataDocumentClients, EventDispatcher, ClockKey, ClientAssertions] as const;
  readonly #clients: LiveClients;
  /**
   * Authorization headers that authenticated a client, so the same Basic credentials again skip
   * the decode and the hash. Only an exact, verified header hits, and only while its client is
   * the one cached (so revocation and expiry end it too).
   */
  readonly #verified = new Map<string, ClientRecord>();

  /** `clients` finds registered clients and, when enabled, metadata-document ones. */
  constructor(
    clients: MetadataDocumentClients,
    events: EventDispatcher,
    private readonly clock: Clock,
    private readonly assertions: ClientAssertions,
  ) {
    this.#clients = new LiveClients(clients);
    events.listen(ClientRevoked, (event) => this.#clients.forget(event.clientId));
    events.listen(ClientSecretRotated, (event) => this.#clients.forget(event.clientId));
  }

  async authenticate(request: ClientCredentialsInput): Promise<ClientRecord> {
    if (ClientAssertions.present(request.params)) {
      if (request.authorization || request.params.client_secret !== undefined) {
        throw OAuthError.invalidRequest('Use one client authentication method, not two.');
      }
      return this.assertions.authenticate(request.params, this.#clients);
    }
    const header = request.authorization;
    const plain = request.params.client_id === undefined && request.params.client_secret === undefined;
    if (header && plain) {
      const known = this.#verified.get(header);
      if (known && this.#clients.holds(known)) return known;
      if (known) this.#verified.delete(header);
    }
    const client = await authenticateClient(this.#clients, request, this.clock.now());
    // While a replaced secret is in its grace period, every request checks the clock again.
    const settled = client.previousSecret === undefined;
    if (header && plain && settled && client.secretHash !== null && this.#clients.holds(client)) {
      if (this.#verified.size >= CLIENT_CACHE_SIZE) this.#verified.clear();
      this.#verified.set(header, client);
    }
    return client;
  }
}

/** Live clients by id for `CLIENT_CACHE_MS` (monotonic time: an operational detail, not domain time). */
class LiveClients implements Pick<ClientStore, 'find'> {
  readonly #entries = new Map<string, { client: ClientRecord; until: number }>();

  constructor(private readonly store: Pick<ClientStore, 'find'>) {}

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

  /** Whether `client` is still the cached, unexpired record of its id. */
  holds(client: ClientRecord): boolean {
    const hit = this.#entries.get(client.id);
    return hit !== undefined && hit.client === client && hit.until > performance.now();
  }

  forget(id: string): void {
    this.#entries.delete(id);
  }
}
