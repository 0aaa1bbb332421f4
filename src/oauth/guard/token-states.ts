import { LruCache } from '../../core/lru.js';
import type { AccessTokenStore } from '../stores/contracts.js';

/**
 * What the row check learned about one stored access token: live or revoked (itself or its
 * client), and whom the row says it belongs to.
 */
export interface TokenState {
  readonly live: boolean;
  readonly clientId: string;
  readonly userId: number | null;
  /** `performance.now()` when the store was read (or an event told us); a dead state never goes stale. */
  readonly checkedAt: number;
}

/**
 * How long a live state is trusted before the row is read again, when the application sets
 * nothing: the bound on how late an instance learns of a revocation made by another instance
 * without Redis (with Redis, revocations arrive at once as messages).
 */
export const DEFAULT_RECHECK_MS = 5_000;

export interface RevocationOptions {
  /** Revocation states kept (token id → live/revoked). Default 100,000. */
  maxTokenStates?: number;
  /**
   * How long a live state is trusted before its row is read again: how late this instance may
   * learn of a revocation made elsewhere without Redis. Default 5,000 ms (`DEFAULT_RECHECK_MS`).
   */
  recheckAfterMs?: number;
}

/**
 * The revocation check's in-process cache (DESIGN decision 3): token id → state, filled by the
 * primary-key lookup, by `AccessTokenCreated` (a token this instance just stored is live) and
 * ended by explicit invalidation — `AccessTokenRevoked`/`ClientRevoked` here, or the same events
 * from other instances through Redis — or, for a live state, after `recheckAfterMs`, so that a
 * revocation no event reached us about (another instance, no Redis) is seen within that time.
 */
export class RevocationCache {
  readonly #states: LruCache<string, TokenState>;
  readonly #revokedClients: LruCache<string, true>;
  readonly recheckAfterMs: number;

  constructor(
    private readonly rows: Pick<AccessTokenStore, 'findWithClient'>,
    options: RevocationOptions = {},
  ) {
    const capacity = options.maxTokenStates ?? 100_000;
    this.#states = new LruCache(capacity);
    this.#revokedClients = new LruCache(Math.max(1, Math.min(capacity, 10_000)));
    this.recheckAfterMs = options.recheckAfterMs ?? DEFAULT_RECHECK_MS;
  }

  /** The token's state: the cached one while trusted, else its row's (one primary-key lookup). */
  state(
    token: { id: string; clientId: string; userId: number | null },
    now: number,
  ): TokenState | Promise<TokenState> {
    return this.trusted(token.id, now) ?? this.#lookup(token, now);
  }

  async #lookup(
    token: { id: string; clientId: string; userId: number | null },
    now: number,
  ): Promise<TokenState> {
    const seen = this.peek(token.id);
    const row = await this.rows.findWithClient(token.id);
    const state: TokenState = row
      ? {
          live: !row.revoked && !row.client.revoked,
          clientId: row.clientId,
          userId: row.userId,
          checkedAt: now,
        }
      : { live: false, clientId: token.clientId, userId: token.userId, checkedAt: now };
    return this.settle(token.id, seen, state);
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
  created(tokenId: string, clientId: string, userId: number | null, now: number): void {
    if (this.#revokedClients.has(clientId)) return;
    this.#states.set(tokenId, { live: true, clientId, userId, checkedAt: now });
  }

  revoke(tokenId: string, now: number): void {
    const current = this.#states.peek(tokenId);
    this.#states.set(tokenId, {
      live: false,
      clientId: current?.clientId ?? '',
      userId: current?.userId ?? null,
      checkedAt: now,
    });
  }

  /** Every cached token of the client becomes dead, and so does any that a lookup in flight returns. */
  revokeClient(clientId: string, now: number): void {
    this.#revokedClients.set(clientId, true);
    const dead: [string, TokenState][] = [];
    for (const [id, state] of this.#states.entries())
      if (state.live && state.clientId === clientId)
        dead.push([id, { ...state, live: false, checkedAt: now }]);
    for (const [id, state] of dead) this.#states.set(id, state);
  }

  /** Forgets everything (after missing invalidation messages): the next requests read the store. */
  clear(): void {
    this.#states.clear();
  }
}

/**
 * The token's own claims agree with its stored row (`sub` and `client_id`): checked on every
 * request, cached or not, so a token can never borrow another row's live state by its `jti`.
 */
export function bindsTo(state: TokenState, token: { clientId: string; userId: number | null }): boolean {
  return state.clientId === token.clientId && state.userId === token.userId;
}
