import type { Clock } from '../../core/clock.js';
import { ClockKey } from '../../core/keys.js';
import { AccessTokenVerifier } from '../jwt/access-token-verifier.js';
import type { AccessTokenRecord, ClientRecord, RefreshTokenRecord } from '../records.js';
import { hashSecret } from '../secrets.js';
import { type OAuthStore, OAuthStoreKey } from '../stores/contracts.js';
import { TokenRevoker } from './token-revoker.js';

type Found =
  | { type: 'access_token'; token: AccessTokenRecord; iat: number; exp: number; iss: string; aud: string }
  | { type: 'refresh_token'; token: RefreshTokenRecord; access: AccessTokenRecord };

/** RFC 7662 §2.2's response. */
export interface IntrospectionResponse {
  active: boolean;
  scope?: string;
  client_id?: string;
  token_type?: string;
  exp?: number;
  iat?: number;
  sub?: string;
  aud?: string;
  iss?: string;
  jti?: string;
  /** The organization the token acts for; absent: none. */
  org_id?: number;
}

/** Revocation (RFC 7009) and introspection (RFC 7662) of our access and refresh tokens. */
export class TokenInspector {
  static inject = [OAuthStoreKey, AccessTokenVerifier, TokenRevoker, ClockKey] as const;

  constructor(
    private readonly store: OAuthStore,
    private readonly verifier: AccessTokenVerifier,
    private readonly revoker: TokenRevoker,
    private readonly clock: Clock,
  ) {}

  /**
   * RFC 7009 §2.1: revokes the token if it is ours and was issued to `client`; anything else is
   * silently ignored (§2.2: the response is 200 either way). A refresh token takes its access
   * token with it.
   */
  async revoke(client: ClientRecord, token: string, hint?: string): Promise<void> {
    const found = await this.find(token, hint);
    if (!found) return;
    const owner = found.type === 'access_token' ? found.token.clientId : found.access.clientId;
    if (owner !== client.id) return;
    await this.revoker.revoke(found.type === 'access_token' ? found.token.id : found.access.id);
  }

  /**
   * RFC 7662 §2.2: `{ active: false }` for anything unknown, expired or revoked — and for a token
   * `caller` may not introspect (§2.2, §4): a client sees its own tokens; a client marked as a
   * resource server also sees every access token (the ones presented to it), never another
   * client's refresh token.
   */
  async introspect(caller: ClientRecord, token: string, hint?: string): Promise<IntrospectionResponse> {
    const found = await this.find(token, hint);
    if (!found) return { active: false };
    const owner = found.type === 'access_token' ? found.token.clientId : found.access.clientId;
    const allowed = owner === caller.id || (caller.resourceServer && found.type === 'access_token');
    if (!allowed) return { active: false };
    const now = this.clock.now().toISOString();
    if (found.type === 'access_token') {
      const t = found.token;
      const client = await this.store.clients.find(t.clientId);
      if (t.revoked || !client || client.revoked || t.expiresAt <= now) return { active: false };
      return {
        active: true,
        scope: t.scopes.join(' '),
        client_id: t.clientId,
        token_type: 'Bearer',
        exp: found.exp,
        iat: found.iat,
        sub: t.userId === null ? t.clientId : String(t.userId),
        aud: found.aud,
        iss: found.iss,
        jti: t.id,
        ...(t.organizationId == null ? {} : { org_id: t.organizationId }),
      };
    }
    const { token: r, access } = found;
    const client = await this.store.clients.find(access.clientId);
    if (r.revoked || !client || client.revoked || r.expiresAt <= now) return { active: false };
    return {
      active: true,
      scope: access.scopes.join(' '),
      client_id: access.clientId,
      token_type: 'refresh_token',
      exp: Math.floor(Date.parse(r.expiresAt) / 1000),
      iat: Math.floor(Date.parse(r.createdAt) / 1000),
      sub: access.userId === null ? access.clientId : String(access.userId),
      ...(access.organizationId == null ? {} : { org_id: access.organizationId }),
    };
  }

  private async find(token: string, hint?: string): Promise<Found | undefined> {
    // §2.1: the hint only orders the lookups.
    const order =
      hint === 'refresh_token' ? [this.findRefresh, this.findAccess] : [this.findAccess, this.findRefresh];
    for (const lookup of order) {
      const found = await lookup.call(this, token);
      if (found) return found;
    }
    return undefined;
  }

  private async findAccess(token: string): Promise<Found | undefined> {
    if (token.split('.').length !== 3) return undefined;
    const claims = await this.verifier.verifySignature(token);
    if (!claims) return undefined;
    const record = await this.store.accessTokens.find(claims.jti);
    if (!record) return undefined;
    return {
      type: 'access_token',
      token: record,
      iat: claims.iat,
      exp: claims.exp,
      iss: claims.iss,
      aud: claims.aud,
    };
  }

  private async findRefresh(token: string): Promise<Found | undefined> {
    const record = await this.store.refreshTokens.find(hashSecret(token));
    if (!record) return undefined;
    const access = await this.store.accessTokens.find(record.accessTokenId);
    return access ? { type: 'refresh_token', token: record, access } : undefined;
  }
}
