import type { Clock } from '../../core/clock.js';
import { EventDispatcher } from '../../core/events.js';
import { ClockKey } from '../../core/keys.js';
import { AccessTokenCreated, RefreshTokenCreated } from '../events.js';
import { AccessTokenSigner, type AccessTokenSubject } from '../jwt/access-token-signer.js';
import type { AccessTokenRecord, ClientRecord, RefreshTokenRecord } from '../records.js';
import { hashSecret, randomSecret } from '../secrets.js';
import { type OAuthStore, OAuthStoreKey } from '../stores/contracts.js';
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
 * Stores and signs tokens. Events are announced by the caller after commit. Grants that write
 * in a transaction `prepare` (ids and RS256 signature) before opening it and only `save` inside:
 * on SQLite the transaction holds the only connection, so a signature inside it queues every
 * other request behind it. `issue` is both at once, for a single insert outside any transaction.
 */
export class TokenIssuer {
  static inject = [AccessTokenSigner, ClockKey, EventDispatcher, OAuthStoreKey] as const;

  constructor(
    private readonly signer: AccessTokenSigner,
    private readonly clock: Clock,
    private readonly events: EventDispatcher,
    private readonly store: OAuthStore,
  ) {}

  /** Signs and stores: the insert and the signature run side by side. */
  async issue(options: IssueOptions, store: OAuthStore = this.store): Promise<IssuedTokens> {
    const key = await this.signer.currentKey();
    const { issued, subject } = this.#build(options, key.kid);
    const [accessToken] = await Promise.all([
      this.signer.sign(subject, key),
      store.accessTokens.insert(issued.record),
    ]);
    issued.accessToken = accessToken;
    if (issued.refreshRecord) await store.refreshTokens.insert(issued.refreshRecord);
    return issued;
  }

  /** Generates the ids and signs the JWT (`jti` = the access token row id); stores nothing. */
  async prepare(options: IssueOptions): Promise<IssuedTokens> {
    const key = await this.signer.currentKey();
    const { issued, subject } = this.#build(options, key.kid);
    issued.accessToken = await this.signer.sign(subject, key);
    return issued;
  }

  /** Inserts what `prepare` built; return the tokens only once this committed. */
  async save(issued: IssuedTokens, store: OAuthStore = this.store): Promise<void> {
    await store.accessTokens.insert(issued.record);
    if (issued.refreshRecord) await store.refreshTokens.insert(issued.refreshRecord);
  }

  #build(options: IssueOptions, kid: string): { issued: IssuedTokens; subject: AccessTokenSubject } {
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
      kid,
    };
    const subject: AccessTokenSubject = {
      tokenId: record.id,
      userId: record.userId,
      clientId: record.clientId,
      scopes: record.scopes,
      issuedAt,
      expiresAt,
    };
    const issued: IssuedTokens = { accessToken: '', record, expiresIn: options.ttlSeconds };
    if (options.refresh) {
      const refreshToken = randomSecret();
      const id = hashSecret(refreshToken);
      issued.refreshToken = refreshToken;
      issued.refreshRecord = {
        id,
        accessTokenId: record.id,
        familyId: options.refresh.familyId ?? id,
        revoked: false,
        createdAt: now,
        expiresAt: new Date(nowMs + options.refresh.ttlSeconds * 1000).toISOString(),
      };
    }
    return { issued, subject };
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
