import type { Clock } from '../../core/clock.js';
import type { TollgateConfig } from '../../core/config.js';
import { ClockKey, ConfigKey } from '../../core/keys.js';
import type { ClientIdMetadataDocumentsConfig } from '../config.js';
import type { ClientRecord } from '../records.js';
import { Scopes } from '../scopes.js';
import { type ClientStore, type OAuthStore, OAuthStoreKey } from '../stores/contracts.js';
import { AddressPolicy } from './address-policy.js';
import { cacheSeconds } from './cache-control.js';
import { clientIdUrlProblem, isClientIdUrl } from './client-id-url.js';
import { documentClient, documentError } from './document-client.js';
import { DocumentFetchError, safeFetch } from './safe-fetch.js';

const CACHE_SIZE = 10_000;

/**
 * Clients by id, Client ID Metadata Documents included (draft-ietf-oauth-client-id-metadata-
 * document, the MCP authorization specification's preferred registration): when enabled, a
 * client id that is an `https` URL is fetched, checked and saved as a public client under that
 * id (so tokens, consent and revocation work as for any client), then served from the table
 * until the document's cache lifetime ends. Concurrent requests for one URL share one fetch.
 * An operator's revocation of such a client stays: a new fetch updates its metadata only.
 */
export class MetadataDocumentClients implements Pick<ClientStore, 'find'> {
  static inject = [OAuthStoreKey, Scopes, ClockKey, ConfigKey] as const;
  readonly #config: ClientIdMetadataDocumentsConfig;
  readonly #policy: AddressPolicy;
  readonly #limits: { maxRedirects: number; signingAlgorithm: string };
  /** Until when each document is fresh (epoch milliseconds, by the clock). */
  readonly #fresh = new Map<string, number>();
  readonly #inFlight = new Map<string, Promise<ClientRecord | undefined>>();

  constructor(
    private readonly store: OAuthStore,
    private readonly scopes: Scopes,
    private readonly clock: Clock,
    config: TollgateConfig,
  ) {
    this.#config = config.oauth.clientIdMetadataDocuments;
    this.#policy = new AddressPolicy(this.#config.allowAddressRanges);
    this.#limits = {
      maxRedirects: config.oauth.maxRedirectsPerClient,
      signingAlgorithm: config.oauth.signingAlgorithm,
    };
  }

  get enabled(): boolean {
    return this.#config.enabled;
  }

  /** Whether finding `id` now would fetch a document (an enabled URL id not fresh in the cache). */
  wouldFetch(id: string): boolean {
    if (!this.#config.enabled || !isClientIdUrl(id, this.#config)) return false;
    return (this.#fresh.get(id) ?? 0) <= this.clock.now().getTime();
  }

  async find(id: string): Promise<ClientRecord | undefined> {
    if (!this.#config.enabled || !isClientIdUrl(id, this.#config)) return this.store.clients.find(id);
    const problem = clientIdUrlProblem(id, this.#config);
    if (problem) throw documentError(id, problem);
    if ((this.#fresh.get(id) ?? 0) > this.clock.now().getTime()) return this.store.clients.find(id);
    let pending = this.#inFlight.get(id);
    if (!pending) {
      pending = this.#refresh(id).finally(() => this.#inFlight.delete(id));
      this.#inFlight.set(id, pending);
    }
    return pending;
  }

  async #refresh(id: string): Promise<ClientRecord | undefined> {
    let fetched: Awaited<ReturnType<typeof safeFetch>>;
    try {
      fetched = await safeFetch(new URL(id), this.#policy, this.#config);
    } catch (error) {
      if (error instanceof DocumentFetchError) throw documentError(id, error.message);
      throw error;
    }
    if (fetched.status !== 200) {
      const redirect = fetched.status >= 300 && fetched.status < 400 ? ' (redirects are not followed)' : '';
      throw documentError(id, `its server answered ${fetched.status}${redirect}.`);
    }
    const client = documentClient(id, fetched.body, {
      scopes: this.scopes,
      ...this.#limits,
    });
    const now = this.clock.now();
    await this.store.clients.saveDocumentClient(client, now.toISOString());
    if (this.#fresh.size >= CACHE_SIZE) this.#fresh.clear();
    this.#fresh.set(id, now.getTime() + cacheSeconds(fetched.cacheControl, this.#config.cacheSeconds) * 1000);
    return this.store.clients.find(id);
  }
}
