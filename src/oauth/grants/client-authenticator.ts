import type { Clock } from '../../core/clock.js';
import { ClockKey } from '../../core/keys.js';
import { LiveClients } from '../clients/live-clients.js';
import { OAuthError } from '../errors.js';
import type { ClientRecord } from '../records.js';
import { authenticateClient, type ClientCredentialsInput } from '../rules/authenticate-client.js';
import { ClientAssertions } from './client-assertions.js';

const VERIFIED_SIZE = 10_000;

/**
 * Client authentication for the token endpoint (RFC 6749 §2.3.1, by `authenticateClient`, or a
 * `private_key_jwt` assertion, RFC 7523, by `ClientAssertions`), over a few seconds' cache of live
 * clients (`LiveClients`): issuance then costs one insert and one signature.
 */
export class ClientAuthenticator {
  static inject = [LiveClients, ClockKey, ClientAssertions] as const;
  /**
   * Authorization headers that authenticated a client, so the same Basic credentials again skip
   * the decode and the hash. Only an exact, verified header hits, and only while its client is
   * the one cached (so revocation and expiry end it too).
   */
  readonly #verified = new Map<string, ClientRecord>();

  constructor(
    private readonly clients: LiveClients,
    private readonly clock: Clock,
    private readonly assertions: ClientAssertions,
  ) {}

  async authenticate(request: ClientCredentialsInput): Promise<ClientRecord> {
    if (ClientAssertions.present(request.params)) {
      if (request.authorization || request.params.client_secret !== undefined) {
        throw OAuthError.invalidRequest('Use one client authentication method, not two.');
      }
      return this.assertions.authenticate(request.params, this.clients);
    }
    const header = request.authorization;
    const plain = request.params.client_id === undefined && request.params.client_secret === undefined;
    if (header && plain) {
      const known = this.#verified.get(header);
      if (known && this.clients.holds(known)) return known;
      if (known) this.#verified.delete(header);
    }
    const client = await authenticateClient(this.clients, request, this.clock.now());
    // While a replaced secret is in its grace period, every request checks the clock again.
    const settled = client.previousSecret === undefined;
    if (header && plain && settled && client.secretHash !== null && this.clients.holds(client)) {
      if (this.#verified.size >= VERIFIED_SIZE) this.#verified.clear();
      this.#verified.set(header, client);
    }
    return client;
  }
}
