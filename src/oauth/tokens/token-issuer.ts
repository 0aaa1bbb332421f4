import type { Clock } from '../../core/clock.js';
import { EventDispatcher } from '../../core/events.js';
import { ClockKey } from '../../core/keys.js';
import { AccessTokenCreated, RefreshTokenCreated } from '../events.js';
import { AccessTokenSigner, type AccessTokenSubject } from '../jwt/access-token-signer.js';
import type { ClaimsRequest } from '../oidc/claims-request.js';
import type { AccessTokenRecord, ClientRecord, RefreshTokenRecord } from '../records.js';
import { Scopes } from '../scopes.js';
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
  /** RFC 8707: the protected resource the token is for (its `aud`); null or absent: the client. */
  audience?: string | null;
  /**
   * Issue a refresh token too; `familyId` continues a rotation chain; the OpenID Connect grant
   * (login time, session, claims request) is kept for ID tokens issued on refresh.
   */
  refresh?: { ttlSeconds: number; familyId?: string } & OpenIdGrant;
  /**
   * RFC 9449: the DPoP key's thumbprint. The access token carries it (`cnf.jkt`); a public
   * client's refresh token is bound to it too (§5: a confidential client authenticates instead).
   */
  jkt?: string | null;
  /**
   * The organization the token acts for (its `org_id` claim). Absent: for a client's own token
   * (client_credentials) its organization, if any; for a user's token, none — a user authorizing
   * an organization's application does not act for that organization.
   */
  organizationId?: number | null;
}

/** What a refresh token keeps of an OpenID Connect grant, for the ID tokens issued on refresh. */
export interface OpenIdGrant {
  /** When the user logged in (ISO-8601). */
  authTime?: string | null;
  /** Back-Channel Logout §2.1: the login session's `sid`. */
  sid?: string | null;
  /** How the user signed in (`amr`). */
  amr?: readonly string[] | null;
  /** Core §5.5: the `claims` request. */
  claims?: ClaimsRequest | null;
}

/** The token endpoint's success body (RFC 6749 §5.1). */
export interface TokenResponse {
  /** `DPoP` for a DPoP-bound token (RFC 9449 §5). */
  token_type: 'Bearer' | 'DPoP';
  expires_in: number;
  access_token: string;
  refresh_token?: string;
  scope?: string;
  /** OpenID Connect Core §3.1.3.3, for a request with the `openid` scope. */
  id_token?: string;
}

export interface IssuedTokens {
  /** The signed JWT. */
  accessToken: string;
  record: AccessTokenRecord;
  expiresIn: number;
  refreshToken?: string;
  refreshRecord?: RefreshTokenRecord;
  /** What the token endpoint answers. */
  response: TokenResponse;
  /** The DPoP key thumbprint the access token is bound to, or null. */
  jkt?: string | null;
}

/** What a grant's own writes see inside the issuing transaction. */
export interface IssuingTransaction {
  /** The transaction's stores. */
  readonly store: OAuthStore;
  /** The new access token's id (its `jti`, already signed): an authorization code points at it. */
  readonly accessTokenId: string;
  /** Runs after commit, before the new tokens are announced (say, announcing what the grant revoked). */
  afterCommit(task: () => Promise<void>): void;
}

/** A grant's writes in the issuing transaction; false aborts it (nothing is saved). */
export type GrantWrites = (transaction: IssuingTransaction) => Promise<boolean>;

/**
 * The whole issuing sequence, in one call: ids and signature (`jti` = the stored row's id), then
 * the rows, then `AccessTokenCreated`/`RefreshTokenCreated` once they are committed, then the RFC
 * 6749 §5.1 response. With `writes` (a grant that consumes a code or a refresh token), the grant's
 * writes and the rows share one transaction, opened only after signing: on SQLite a transaction
 * holds the only connection, so a signature inside it would queue every other request. Without,
 * the rows are one atomic write (`insertWithAccessToken` for a pair) run beside the signature.
 */
export class TokenIssuer {
  static inject = [AccessTokenSigner, ClockKey, EventDispatcher, OAuthStoreKey, Scopes] as const;

  constructor(
    private readonly signer: AccessTokenSigner,
    private readonly clock: Clock,
    private readonly events: EventDispatcher,
    private readonly store: OAuthStore,
    private readonly scopes?: Scopes,
  ) {}

  issue(options: IssueOptions): Promise<IssuedTokens>;
  issue(options: IssueOptions, writes: GrantWrites): Promise<IssuedTokens | undefined>;
  async issue(options: IssueOptions, writes?: GrantWrites): Promise<IssuedTokens | undefined> {
    // Scopes an issuance policy (a plan) does not allow are dropped; the response's `scope` says so.
    if (this.scopes?.restrictsIssuance && options.userId !== null)
      options = {
        ...options,
        scopes: await this.scopes.issuableFor(options.userId, options.scopes, options.organizationId ?? null),
      };
    const key = await this.signer.currentKey();
    const { issued, subject } = this.#build(options, key.kid);
    if (writes === undefined) {
      const [jwt] = await Promise.all([this.signer.sign(subject, key), this.#insert(this.store, issued)]);
      issued.accessToken = jwt;
    } else {
      issued.accessToken = await this.signer.sign(subject, key);
      const after: (() => Promise<void>)[] = [];
      const saved = await this.store.transaction(async (store) => {
        const transaction = {
          store,
          accessTokenId: issued.record.id,
          afterCommit: (t: () => Promise<void>) => after.push(t),
        };
        if (!(await writes(transaction))) return false;
        await this.#insert(store, issued);
        return true;
      });
      if (!saved) return undefined;
      for (const task of after) await task();
    }
    issued.response = toTokenResponse(issued);
    await this.events.dispatch(
      new AccessTokenCreated(issued.record.id, issued.record.userId, issued.record.clientId),
    );
    if (issued.refreshRecord)
      await this.events.dispatch(new RefreshTokenCreated(issued.refreshRecord.id, issued.record.id));
    return issued;
  }

  /** This issuer with every token bound to a DPoP key (RFC 9449 §5), whatever grant issues it. */
  boundTo(jkt: string): TokenIssuer {
    const bound = Object.create(this) as TokenIssuer;
    bound.issue = ((options: IssueOptions, writes?: GrantWrites) =>
      writes === undefined
        ? this.issue({ ...options, jkt })
        : this.issue({ ...options, jkt }, writes)) as TokenIssuer['issue'];
    return bound;
  }

  /** The rows: the access token alone, or with its refresh token in one atomic write. */
  #insert(store: OAuthStore, { record, refreshRecord }: IssuedTokens): Promise<void> {
    return refreshRecord
      ? store.refreshTokens.insertWithAccessToken(refreshRecord, record)
      : store.accessTokens.insert(record);
  }

  #build(options: IssueOptions, kid: string): { issued: IssuedTokens; subject: AccessTokenSubject } {
    const nowMs = this.clock.now().getTime();
    const issuedAt = Math.floor(nowMs / 1000);
    const expiresAt = issuedAt + options.ttlSeconds;
    const now = new Date(nowMs).toISOString();
    const record: AccessTokenRecord = {
      id: accessTokenId(nowMs),
      userId: options.userId,
      clientId: options.client.id,
      name: options.name ?? null,
      scopes: [...options.scopes],
      revoked: false,
      createdAt: now,
      updatedAt: now,
      expiresAt: new Date(expiresAt * 1000).toISOString(),
      kid,
      audience: options.audience ?? null,
      organizationId:
        options.organizationId ?? (options.userId === null ? options.client.organizationId : null) ?? null,
    };
    const subject: AccessTokenSubject = {
      tokenId: record.id,
      userId: record.userId,
      clientId: record.clientId,
      scopes: record.scopes,
      issuedAt,
      expiresAt,
      audience: record.audience,
      jkt: options.jkt ?? null,
      organizationId: record.organizationId ?? null,
    };
    const issued = {
      accessToken: '',
      record,
      expiresIn: options.ttlSeconds,
      jkt: options.jkt ?? null,
    } as IssuedTokens;
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
        authTime: options.refresh.authTime ?? null,
        sid: options.refresh.sid ?? null,
        amr: options.refresh.amr ?? null,
        claims: options.refresh.claims ?? null,
        jkt: options.client.secretHash === null ? (options.jkt ?? null) : null,
      };
    }
    return { issued, subject };
  }
}

export function toTokenResponse(issued: Omit<IssuedTokens, 'response'>): TokenResponse {
  const body: TokenResponse = {
    token_type: issued.jkt ? 'DPoP' : 'Bearer',
    expires_in: issued.expiresIn,
    access_token: issued.accessToken,
  };
  if (issued.refreshToken) body.refresh_token = issued.refreshToken;
  // RFC 6749 §5.1: the granted scope, so a client sees a narrowed or empty grant.
  body.scope = issued.record.scopes.join(' ');
  return body;
}
