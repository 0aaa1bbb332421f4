import type { JSONWebKeySet } from 'jose';
import type { Clock } from '../../core/clock.js';
import type { TollgateConfig } from '../../core/config.js';
import { ClockKey, ConfigKey } from '../../core/keys.js';
import type { ClientFetchConfig } from '../config.js';
import type { ClientExtras } from './client-metadata-store.js';
import { ClientDocumentError, fetchClientDocument } from './fetch-client-document.js';
import { publicKeySetProblem } from './public-key-set.js';

const CACHE_SIZE = 10_000;

interface Fetched {
  keys: JSONWebKeySet;
  /** When it was fetched (epoch milliseconds, by the clock). */
  at: number;
}

/**
 * A client's public keys (`private_key_jwt`, signed request objects): the registered `jwks`, or
 * the set at its `jwks_uri`, fetched (`fetchClientDocument`) and kept `keysCacheSeconds`. A
 * signature by a key id the kept set lacks — the client rotated its keys — fetches the set again,
 * at most once per `keysRefetchSeconds`, so a stream of unknown key ids cannot make this server
 * hammer the client's site. Concurrent fetches of one URL share one request.
 */
export class ClientKeys {
  static inject = [ClockKey, ConfigKey] as const;
  readonly #config: ClientFetchConfig;
  readonly #fetched = new Map<string, Fetched>();
  readonly #inFlight = new Map<string, Promise<JSONWebKeySet>>();

  constructor(
    private readonly clock: Clock,
    config: TollgateConfig,
  ) {
    this.#config = config.oauth.clientFetch;
  }

  /**
   * The keys to verify a signature by `kid` (undefined: the JWS named none) with, or undefined
   * when the client registered none. Throws `ClientDocumentError` when the `jwks_uri` fails.
   */
  async keysFor(extras: ClientExtras, kid: string | undefined): Promise<JSONWebKeySet | undefined> {
    if (extras.jwks) return extras.jwks;
    const uri = extras.jwksUri;
    if (!uri) return undefined;
    const now = this.clock.now().getTime();
    const kept = this.#fetched.get(uri);
    const fresh = kept !== undefined && now - kept.at < this.#config.keysCacheSeconds * 1000;
    const known = kid === undefined || kept?.keys.keys.some((key) => key.kid === kid);
    const mayRefetch = kept === undefined || now - kept.at >= this.#config.keysRefetchSeconds * 1000;
    if (kept && fresh && (known || !mayRefetch)) return kept.keys;
    return this.#fetch(uri);
  }

  #fetch(uri: string): Promise<JSONWebKeySet> {
    let pending = this.#inFlight.get(uri);
    if (!pending) {
      pending = this.#download(uri).finally(() => this.#inFlight.delete(uri));
      this.#inFlight.set(uri, pending);
    }
    return pending;
  }

  async #download(uri: string): Promise<JSONWebKeySet> {
    const body = await fetchClientDocument(uri, this.#config);
    let parsed: unknown;
    try {
      parsed = JSON.parse(body);
    } catch {
      throw new ClientDocumentError('It is not JSON.');
    }
    const problem = publicKeySetProblem(parsed);
    if (problem) throw new ClientDocumentError(`It is not a set of public keys: ${problem}`);
    const keys = parsed as JSONWebKeySet;
    if (this.#fetched.size >= CACHE_SIZE) this.#fetched.clear();
    this.#fetched.set(uri, { keys, at: this.clock.now().getTime() });
    return keys;
  }
}
