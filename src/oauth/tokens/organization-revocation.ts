import type { Kysely } from 'kysely';
import type { Clock } from '../../core/clock.js';
import { ClockKey } from '../../core/keys.js';
import type { Database } from '../../database/types.js';
import { ApiKeys } from '../api-keys/api-keys.js';
import { type ApiKeyStore, ApiKeyStoreKey } from '../api-keys/records.js';
import { type OAuthStore, OAuthStoreKey } from '../stores/contracts.js';
import { KyselyOAuthStore } from '../stores/kysely-store.js';
import { TokenRevoker } from './token-revoker.js';

/**
 * Ends what an organization's credentials gave, for the organizations module (which calls it when a
 * membership or an organization ends). Each revocation is announced, so every instance's caches of
 * verified tokens and keys refuse them at once.
 */
export class OrganizationRevocation {
  static inject = [OAuthStoreKey, TokenRevoker, ApiKeys, ApiKeyStoreKey, ClockKey] as const;

  constructor(
    private readonly store: OAuthStore,
    private readonly revoker: TokenRevoker,
    private readonly apiKeys: ApiKeys,
    private readonly apiKeyStore: ApiKeyStore,
    private readonly clock: Clock,
  ) {}

  /**
   * A member left or was removed: their access tokens acting for the organization (personal access
   * tokens with its `org_id`) stop working. What the organization owns — its API keys, its clients
   * and their tokens — keeps working. Returns how many tokens were revoked.
   */
  async member(userId: number, organizationId: number): Promise<number> {
    const ids = await this.#revokeTokens(this.store, organizationId, userId);
    await this.revoker.announce(ids);
    return ids.length;
  }

  /**
   * The same, inside `trx`, the transaction that ends the membership: the membership and its
   * tokens end together or not at all. Returns the announcement to make once `trx` committed
   * (announced earlier, a cache could take a token as live again before the commit).
   */
  async memberWithin(
    trx: Kysely<Database>,
    userId: number,
    organizationId: number,
  ): Promise<() => Promise<void>> {
    const ids = await this.#revokeTokens(new KyselyOAuthStore(trx, true), organizationId, userId);
    return () => this.revoker.announce(ids);
  }

  /** The organization is gone: its clients (with their tokens), its API keys and every token acting for it. */
  async organization(organizationId: number): Promise<void> {
    for (const client of await this.store.clients.forOrganization(organizationId))
      await this.revoker.revokeClient(client.id);
    for (const key of await this.apiKeyStore.forOrganization(organizationId)) await this.apiKeys.revoke(key);
    await this.revoker.announce(await this.#revokeTokens(this.store, organizationId));
  }

  async #revokeTokens(store: OAuthStore, organizationId: number, userId?: number): Promise<string[]> {
    const now = this.clock.now().toISOString();
    const ids = await store.accessTokens.revokeForOrganization(organizationId, now, userId);
    await store.refreshTokens.revokeForAccessTokens(ids);
    return ids;
  }
}
