import type { Context } from 'hono';
import type { Clock } from '../../core/clock.js';
import type { EventDispatcher } from '../../core/events.js';
import { ClockKey, EventsKey } from '../../core/keys.js';
import { AuthorizedTokenRevoked } from '../events.js';
import { serializeToken } from '../personal/personal-access-tokens.js';
import { isRecordId } from '../records.js';
import { type OAuthStore, OAuthStoreKey } from '../stores/contracts.js';
import { TokenRevoker } from '../tokens/token-revoker.js';
import { notFound } from './clients-controller.js';

/** `/oauth/tokens`: the applications the user authorized (Passport's AuthorizedAccessTokenController). */
export class AuthorizedTokensController {
  static inject = [OAuthStoreKey, TokenRevoker, ClockKey, EventsKey] as const;

  constructor(
    private readonly store: OAuthStore,
    private readonly revoker: TokenRevoker,
    private readonly clock: Clock,
    private readonly events: EventDispatcher,
  ) {}

  async index(c: Context): Promise<Response> {
    const now = this.clock.now().toISOString();
    const tokens = await this.store.accessTokens.forUser(c.get('user')!.id, { personal: false, now });
    return c.json(tokens.map(serializeToken));
  }

  /** Revokes the token and its refresh token; another user's token is "not found". */
  async destroy(tokenId: string, c: Context): Promise<Response> {
    // The path is input: an id no token can have is not looked up (findWithClient is the guard's query).
    if (!isRecordId(tokenId)) throw notFound();
    const token = await this.store.accessTokens.findWithClient(tokenId);
    if (!token || token.userId !== c.get('user')!.id || token.revoked || token.client.personalAccessClient) {
      throw notFound();
    }
    // Of two revocations at once, the one that did not revoke it answers as for a revoked token.
    if (!(await this.revoker.revoke(token.id))) throw notFound();
    await this.events.dispatch(new AuthorizedTokenRevoked(token.id, token.userId, token.client.id));
    return c.body(null, 204);
  }
}
