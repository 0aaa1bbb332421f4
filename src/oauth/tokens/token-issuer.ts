import type { Clock } from '../../foundation/clock.js';
import { EventDispatcher } from '../../foundation/events.js';
import { ClockToken } from '../../foundation/tokens.js';
import { AccessTokenCreated, RefreshTokenCreated } from '../events.js';
import { AccessTokenSigner } from '../jwt/access-token-signer.js';
import type { AccessTokenRecord, ClientRecord, RefreshTokenRecord } from '../records.js';
import { hashSecret, randomSecret } from '../secrets.js';
import { type OAuthStore, OAuthStoreToken } from '../stores/contracts.js';
import { accessTokenId } from './token-ids.js';

export interface IssueOptions {
  client: ClientRecord;
  userId: number | null;
  scopes: readonly string[];
  /** Personal access tokens carry a name. */
  name?: string | null;
  ttlSeconds: number;
  /** Issue a refresh token too; `familyId` continues a rotation chain. */
  refresh?: { ttlSeconds: number; familyId?: string };
}

export interface IssuedTokens {
  /** The signed JWT. */
  accessToken: string;
  record: AccessTokenRecord;
  expiresIn: number;
  refreshToken?: string;
  refreshRecord?: RefreshTokenRecord;
}

/**
 * Stores and signs tokens. The insert and the RS256 signature run side by side, the store is the
 * caller's (one transaction per grant), and events are announced by the caller after commit.
 */
export class TokenIssuer {
  static inject = [AccessTokenSigner, ClockToken, EventDispatcher, OAuthStoreToken] as const;

  constructor(
    private readonly signer: AccessTokenSigner,
    private readonly clock: Clock,
    private readonly events: EventDispatcher,
    private readonly store: OAuthStore,
  ) {}

  async issue(options: IssueOptions, store: OAuthStore = this.store): Promise<IssuedTokens> {
    const nowMs = this.clock.now().getTime();
    const issuedAt = Math.floor(nowMs / 1000);
    const expiresAt = issuedAt + options.ttlSeconds;
    const now = new Date(nowMs).toISOString();
    const record: AccessTokenRecord = {
      id: accessTokenId(),
      userId: options.userId,
      clientId: options.client.id,
      name: options.name ?? null,
      scopes: [...options.scopes],
      revoked: false,
      createdAt: now,
      updatedAt: now,
      expiresAt: new Date(expiresAt * 1000).toISOString(),
    };
    const [accessToken] = await Promise.all([
      this.signer.sign({
        tokenId: record.id,
        userId: record.userId,
        clientId: record.clientId,
        scopes: record.scopes,
        issuedAt,
        expiresAt,
      }),
      store.accessTokens.insert(record),
    ]);
    const issued: IssuedTokens = { accessToken, record, expiresIn: options.ttlSeconds };
    if (options.refresh) {
      const refreshToken = randomSecret();
      const id = hashSecret(refreshToken);
      const refreshRecord: RefreshTokenRecord = {
        id,
        accessTokenId: record.id,
        familyId: options.refresh.familyId ?? id,
        revoked: false,
        createdAt: now,
        expiresAt: new Date(nowMs + options.refresh.ttlSeconds * 1000).toISOString(),
      };
      await store.refreshTokens.insert(refreshRecord);
      issued.refreshToken = refreshToken;
      issued.refreshRecord = refreshRecord;
    }
    return issued;
  }

  /** Raises AccessTokenCreated (and RefreshTokenCreated): after the transaction committed. */
  async announce(issued: IssuedTokens): Promise<void> {
    const { record, refreshRecord } = issued;
    await this.events.dispatch(new AccessTokenCreated(record.id, record.userId, record.clientId));
    if (refreshRecord) await this.events.dispatch(new RefreshTokenCreated(refreshRecord.id, record.id));
  }
}

/** The token endpoint's success body (RFC 6749 §5.1). */
export interface TokenResponse {
  token_type: 'Bearer';
  expires_in: number;
  access_token: string;
  refresh_token?: string;
  scope?: string;
}

export function toTokenResponse(issued: IssuedTokens): TokenResponse {
  const body: TokenResponse = {
    token_type: 'Bearer',
    expires_in: issued.expiresIn,
    access_token: issued.accessToken,
  };
  if (issued.refreshToken) body.refresh_token = issued.refreshToken;
  // RFC 6749 §5.1: the granted scope, so a client sees a narrowed or empty grant.
  body.scope = issued.record.scopes.join(' ');
  return body;
}
