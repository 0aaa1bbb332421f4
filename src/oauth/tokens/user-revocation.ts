import type { Clock } from '../../core/clock.js';
import { ClockKey } from '../../core/keys.js';
import { ApiKeys } from '../api-keys/api-keys.js';
import { type ApiKeyStore, ApiKeyStoreKey } from '../api-keys/records.js';
import { Clients } from '../clients/clients.js';
import { type OAuthStore, OAuthStoreKey } from '../stores/contracts.js';
import { TokenRevoker } from './token-revoker.js';

/** How many of each credential one `revokeAll` revoked (a second call at once finds them revoked: 0). */
export interface RevokedCredentials {
  clients: number;
  accessTokens: number;
  apiKeys: number;
}

/**
 * Everything a user holds or owns, revoked at once (an account being deleted): the OAuth clients
 * they own (with every token those clients hold), every access token issued to them (personal or
 * not, with its refresh tokens), and their API keys. Each revocation is announced, so the caches of
 * verified tokens and keys on every instance drop them.
 */
export class UserRevocation {
  static inject = [OAuthStoreKey, TokenRevoker, Clients, ApiKeys, ApiKeyStoreKey, ClockKey] as const;

  constructor(
    private readonly store: OAuthStore,
    private readonly revoker: TokenRevoker,
    private readonly clients: Clients,
    private readonly apiKeys: ApiKeys,
    private readonly apiKeyStore: ApiKeyStore,
    private readonly clock: Clock,
  ) {}

  async revokeAll(userId: number): Promise<RevokedCredentials> {
    let clients = 0;
    for (const client of await this.clients.forUser(userId)) if (await this.clients.delete(client)) clients++;
    const now = this.clock.now().toISOString();
    const tokens = await this.store.accessTokens.forUser(userId, { now });
    const ids = await this.revoker.revokeAccessTokens(tokens.map((t) => t.id));
    await this.revoker.announce(ids);
    let apiKeys = 0;
    // Also the keys they made for an organization: a key acts as its creator, who is gone.
    for (const key of await this.apiKeyStore.forUser(userId)) if (await this.apiKeys.revoke(key)) apiKeys++;
    return { clients, accessTokens: ids.length, apiKeys };
  }

  /**
   * After the user's row is gone: deletes what is keyed to them with no foreign key to cascade
   * (API keys: their table has none, so users may live elsewhere). Revoke first: this only tidies.
   */
  async forget(userId: number): Promise<void> {
    await this.apiKeyStore.deleteForUser(userId);
  }
}
