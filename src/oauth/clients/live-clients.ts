import { EventDispatcher } from '../../core/events.js';
import { MetadataDocumentClients } from '../cimd/metadata-document-clients.js';
import { ClientRevoked, ClientSecretRotated, ClientUpdated } from '../events.js';
import type { ClientRecord } from '../records.js';
import type { ClientStore } from '../stores/contracts.js';

const CLIENT_CACHE_MS = 5_000;
const CLIENT_CACHE_SIZE = 10_000;

/**
 * Live clients by id for `CLIENT_CACHE_MS`, shared by the token and authorization endpoints. A
 * revocation, secret rotation or update on this instance is forgotten at once; other instances
 * forget it when Redis tells them (`registerApiGuard`), else their entry ends within
 * `CLIENT_CACHE_MS` (the guard refuses a revoked client's tokens, and a code is inserted only
 * while its client is live: `AuthCodeStore.insert`). Monotonic time: an operational detail, not
 * domain time.
 */
export class LiveClients implements Pick<ClientStore, 'find'> {
  static inject = [MetadataDocumentClients, EventDispatcher] as const;
  readonly #entries = new Map<string, { client: ClientRecord; until: number }>();
  /** Counts forgets: a read that a forget overtook may hold the old row, and is not kept. */
  #forgets = 0;

  /** `store` finds registered clients and, when enabled, metadata-document ones. */
  constructor(
    private readonly store: Pick<MetadataDocumentClients, 'find' | 'wouldFetch'>,
    events: EventDispatcher,
  ) {
    for (const event of [ClientRevoked, ClientSecretRotated, ClientUpdated]) {
      events.listen(event, (e) => this.forget(e.clientId));
    }
  }

  async find(id: string): Promise<ClientRecord | undefined> {
    const now = performance.now();
    const hit = this.#entries.get(id);
    // A metadata document past its cache lifetime is fetched again, as without this cache.
    if (hit && hit.until > now && !this.store.wouldFetch(id)) return hit.client;
    const forgets = this.#forgets;
    const client = await this.store.find(id);
    if (client && !client.revoked && forgets === this.#forgets) {
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
    this.#forgets++;
    this.#entries.delete(id);
  }

  /** Forgets every client (changes may have been missed while Redis was away). */
  clear(): void {
    this.#forgets++;
    this.#entries.clear();
  }
}
