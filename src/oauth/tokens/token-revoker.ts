import type { Clock } from '../../core/clock.js';
import { EventDispatcher } from '../../core/events.js';
import { ClockKey } from '../../core/keys.js';
import { AccessTokenRevoked, ClientRevoked } from '../events.js';
import { type OAuthStore, OAuthStoreKey } from '../stores/contracts.js';

/**
 * Every revocation goes through here, so every revoked access token raises AccessTokenRevoked
 * (caches of verified tokens listen to it). Methods take an optional store to join a transaction;
 * then the caller announces the returned ids after commit.
 */
export class TokenRevoker {
  static inject = [OAuthStoreKey, ClockKey, EventDispatcher] as const;

  constructor(
    private readonly store: OAuthStore,
    private readonly clock: Clock,
    private readonly events: EventDispatcher,
  ) {}

  /** Revokes one access token and its refresh tokens. Returns whether it was live before. */
  async revoke(tokenId: string): Promise<boolean> {
    const ids = await this.revokeAccessTokens([tokenId]);
    await this.announce(ids);
    return ids.length > 0;
  }

  /** Revokes access tokens and their refresh tokens, without announcing. */
  async revokeAccessTokens(ids: readonly string[], store: OAuthStore = this.store): Promise<string[]> {
    const revoked = await store.accessTokens.revoke(ids, this.clock.now().toISOString());
    await store.refreshTokens.revokeForAccessTokens(ids);
    return revoked;
  }

  /**
   * Revokes access tokens whose refresh token is already retired, without announcing: the refresh
   * grant's rotation consumes the only refresh token an access token has, so looking for others
   * would be a statement that finds nothing.
   */
  retireAccessTokens(ids: readonly string[], store: OAuthStore = this.store): Promise<string[]> {
    return store.accessTokens.revoke(ids, this.clock.now().toISOString());
  }

  /** A refresh token was presented twice: revoke the whole rotation chain (RFC 9700 §4.14.2). */
  async revokeFamily(familyId: string): Promise<string[]> {
    const accessTokenIds = await this.store.refreshTokens.revokeFamily(familyId);
    const ids = await this.revokeAccessTokens(accessTokenIds);
    await this.announce(ids);
    return ids;
  }

  /**
   * Revokes a client and every token it holds (Passport's client delete). Returns whether this call
   * revoked it: of two at once, the one whose update finds the client revoked already changes
   * nothing and announces nothing.
   */
  async revokeClient(clientId: string, actorId: number | null = null): Promise<boolean> {
    const now = this.clock.now().toISOString();
    const ids = await this.store.transaction(async (store) => {
      if (!(await store.clients.revoke(clientId, now))) return undefined;
      const tokenIds = await store.accessTokens.revokeForClient(clientId, now);
      await store.refreshTokens.revokeForAccessTokens(tokenIds);
      return tokenIds;
    });
    if (ids === undefined) return false;
    await this.events.dispatch(new ClientRevoked(clientId, actorId));
    await this.announce(ids);
    return true;
  }

  async announce(ids: readonly string[]): Promise<void> {
    for (const id of ids) await this.events.dispatch(new AccessTokenRevoked(id));
  }
}
