import { LruCache } from './lru.js';

/** What the row check learned about one access token: live, or revoked (itself or its client). */
export interface TokenState {
  readonly live: boolean;
  readonly clientId: string;
  /** `performance.now()` when the store was read (or an event told us); a dead state never goes stale. */
  readonly checkedAt: number;
}

/**
 * The revocation check's in-process cache (DESIGN decision 3): token id → state, filled by the
 * primary-key lookup, by `AccessTokenCreated` (a token this instance just stored is live) and
 * emptied only by explicit invalidation — `AccessTokenRevoked`/`ClientRevoked` here, or the same
 * events from other instances through Redis. `recheckAfterMs` bounds how long a live state is
 * trusted when revocations can happen where no event reaches us (several instances, no Redis).
 */
export class RevocationCache {
  readonly #states: LruCache<string, TokenState>;
  readonly #revokedClients: LruCache<string, true>;

  constructor(
    capacity: number,
    readonly recheckAfterMs: number,
  ) {
    this.#states = new LruCache(capacity);
    this.#revokedClients = new LruCache(Math.max(1, Math.min(capacity, 10_000)));
  }

  get size(): number {
    return this.#states.size;
  }

  /** The state if it can be trusted now: a dead one always, a live one until `recheckAfterMs`. */
  trusted(tokenId: string, now: number): TokenState | undefined {
    const state = this.#states.get(tokenId);
    if (state === undefined) return undefined;
    if (!state.live || now - state.checkedAt < this.recheckAfterMs) return state;
    return undefined;
  }

  /** The entry as it is, fresh or not: pass it to `settle` after reading the store. */
  peek(tokenId: string): TokenState | undefined {
    return this.#states.peek(tokenId);
  }

  /**
   * Records what the store said, unless the entry changed while we read it: a revocation that
   * lands during the lookup must win over the (older) live row we read.
   */
  settle(tokenId: string, seen: TokenState | undefined, state: TokenState): TokenState {
    const current = this.#states.peek(tokenId);
    if (current !== seen) return current ?? state;
    const final = state.live && this.#revokedClients.has(state.clientId) ? { ...state, live: false } : state;
    this.#states.set(tokenId, final);
    return final;
  }

  /** A token this instance just stored: live, no lookup needed on its first use. */
  created(tokenId: string, clientId: string, now: number): void {
    if (this.#revokedClients.has(clientId)) return;
    this.#states.set(tokenId, { live: true, clientId, checkedAt: now });
  }

  revoke(tokenId: string, now: number): void {
    const current = this.#states.peek(tokenId);
    this.#states.set(tokenId, { live: false, clientId: current?.clientId ?? '', checkedAt: now });
  }

  /** Every cached token of the client becomes dead, and so does any that a lookup in flight returns. */
  revokeClient(clientId: string, now: number): void {
    this.#revokedClients.set(clientId, true);
    const ids: string[] = [];
    for (const [id, state] of this.#states.entries())
      if (state.live && state.clientId === clientId) ids.push(id);
    for (const id of ids) this.#states.set(id, { live: false, clientId, checkedAt: now });
  }

  /** Forgets everything (after missing invalidation messages): the next requests read the store. */
  clear(): void {
    this.#states.clear();
  }
}
