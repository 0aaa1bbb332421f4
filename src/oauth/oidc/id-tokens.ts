import { Users } from '../../auth/users.js';
import type { Clock } from '../../core/clock.js';
import type { TollgateConfig } from '../../core/config.js';
import { ClockKey, ConfigKey } from '../../core/keys.js';
import { OAuthError } from '../errors.js';
import { issuerOf } from '../jwt/access-token-signer.js';
import { AccessTokenClaims } from './access-token-claims.js';
import { acrOf } from './amr.js';
import type { ClaimsRequest } from './claims-request.js';
import { IdTokenSigner } from './id-token-signer.js';
import { OPENID } from './scopes.js';
import { releasedClaims, type UserClaims, UserClaimsKey } from './user-claims.js';

/** What an authorization code remembers of the OpenID request it answered. */
export interface IdTokenRequest {
  clientId: string;
  userId: number;
  scopes: readonly string[];
  /** The authorization request's `nonce` (Core §3.1.2.1), echoed in the ID token. */
  nonce: string | null;
  /** When the user logged in, in seconds; null when the session did not record it. */
  authTime: number | null;
  /** Back-Channel Logout §2.1: the login session's id; null or absent when none was made. */
  sid?: string | null;
  /** RFC 8176: how the user signed in (`pwd`, `otp`); null or absent when not recorded. */
  amr?: readonly string[] | null;
  /** Core §5.5: the `claims` request of the grant; null or absent when none. */
  claims?: ClaimsRequest | null;
}

/** A stored login time (ISO-8601) as the `auth_time` claim (seconds); null when unknown. */
export function authTimeClaim(stored: string | null | undefined): number | null {
  if (!stored) return null;
  const ms = Date.parse(stored);
  return Number.isFinite(ms) ? Math.floor(ms / 1000) : null;
}

/**
 * Signs the ID token once the access token it goes with is known (for `at_hash`), and keeps the
 * grant's userinfo claims request beside that token (its id, the `jti`).
 */
export type PendingIdToken = (accessToken: string, accessTokenId: string) => Promise<string>;

/**
 * ID tokens for the token endpoint (OpenID Connect Core §3.1.3.3). The user's claims are read
 * before any token is issued, so a user who is gone fails the exchange instead of leaving an
 * access token without its ID token.
 */
export class IdTokens {
  static inject = [IdTokenSigner, Users, UserClaimsKey, AccessTokenClaims, ClockKey, ConfigKey] as const;
  readonly #issuer: string;

  constructor(
    private readonly signer: IdTokenSigner,
    private readonly users: Users,
    private readonly claims: UserClaims,
    private readonly tokenClaims: AccessTokenClaims,
    private readonly clock: Clock,
    private readonly config: TollgateConfig,
  ) {
    this.#issuer = issuerOf(config);
  }

  /** Core §3.1.2.1: only a request with the `openid` scope is an OpenID Connect request. */
  wanted(scopes: readonly string[]): boolean {
    return scopes.includes(OPENID);
  }

  async prepare(request: IdTokenRequest): Promise<PendingIdToken> {
    const user = await this.users.find(request.userId);
    if (!user) throw OAuthError.invalidGrant('The authorization grant is invalid.', 'the user is gone');
    const claims = await releasedClaims(this.claims, user, request.scopes, request.claims, 'id_token');
    return async (accessToken, accessTokenId) => {
      await this.tokenClaims.save(accessTokenId, request.claims);
      const iat = Math.floor(this.clock.now().getTime() / 1000);
      return this.signer.sign(
        {
          ...claims,
          iss: this.#issuer,
          sub: String(user.id),
          aud: request.clientId,
          // Core §2: the party the token was issued to, the one audience here.
          azp: request.clientId,
          iat,
          exp: iat + this.config.oauth.idTokenTtlSeconds,
          ...(request.authTime !== null ? { auth_time: request.authTime } : {}),
          ...(request.amr?.length ? { amr: [...request.amr], acr: acrOf(request.amr) } : {}),
          ...(request.nonce !== null ? { nonce: request.nonce } : {}),
          ...(request.sid ? { sid: request.sid } : {}),
        },
        accessToken,
      );
    };
  }
}
