import type { Clock } from '../../core/clock.js';
import { EventDispatcher } from '../../core/events.js';
import { ClockKey } from '../../core/keys.js';
import { ConsentRevoked } from '../events.js';
import { type OAuthStore, OAuthStoreKey } from '../stores/contracts.js';
import { TokenRevoker } from './token-revoker.js';

/** An application the user approved: its live tokens taken together. */
export interface AuthorizedApp {
  clientId: string;
  name: string;
  /** Every scope any of its live tokens holds. */
  scopes: string[];
  /** When its oldest live token was issued. */
  since: string;
  /** The latest use of any of its tokens; null: never used. */
  lastUsedAt: string | null;
  tokenIds: string[];
}

/**
 * The applications a user authorized, one per client (approving again issues another token, so
 * one application may hold several). Revoking an application revokes every token it holds: the
 * approval lives in them, so the application has to ask again.
 */
export class AuthorizedApps {
  static inject = [OAuthStoreKey, TokenRevoker, ClockKey, EventDispatcher] as const;

  constructor(
    private readonly store: OAuthStore,
    private readonly revoker: TokenRevoker,
    private readonly clock: Clock,
    private readonly events?: EventDispatcher,
  ) {}

  async forUser(userId: number): Promise<AuthorizedApp[]> {
    const now = this.clock.now().toISOString();
    const tokens = await this.store.accessTokens.forUser(userId, { personal: false, now });
    const apps = new Map<string, AuthorizedApp>();
    for (const token of tokens) {
      const app = apps.get(token.clientId) ?? {
        clientId: token.clientId,
        name: token.client.name,
        scopes: [],
        since: token.createdAt,
        lastUsedAt: null,
        tokenIds: [],
      };
      app.tokenIds.push(token.id);
      for (const scope of token.scopes) if (!app.scopes.includes(scope)) app.scopes.push(scope);
      if (token.createdAt < app.since) app.since = token.createdAt;
      if (token.lastUsedAt && (app.lastUsedAt === null || token.lastUsedAt > app.lastUsedAt))
        app.lastUsedAt = token.lastUsedAt;
      apps.set(token.clientId, app);
    }
    return [...apps.values()];
  }

  /**
   * Revokes every live token the user gave the client; returns the application, or undefined if
   * none was live. Two revokes at once both list the tokens, but only one revokes them: the other
   * finds them revoked already and answers undefined, as if it had come second.
   */
  async revoke(userId: number, clientId: string): Promise<AuthorizedApp | undefined> {
    const app = (await this.forUser(userId)).find((a) => a.clientId === clientId);
    if (app === undefined) return undefined;
    const ids = await this.revoker.revokeAccessTokens(app.tokenIds);
    if (ids.length === 0) return undefined;
    await this.revoker.announce(ids);
    await this.events?.dispatch(new ConsentRevoked(userId, clientId));
    return app;
  }
}
