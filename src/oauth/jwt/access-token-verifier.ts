import { compactVerify, errors, jwtVerify } from 'jose';
import type { Clock } from '../../foundation/clock.js';
import type { TollgateConfig } from '../../foundation/config.js';
import { ClockToken, ConfigToken } from '../../foundation/tokens.js';
import { OAuthError } from '../errors.js';
import { SigningKeys } from '../keys/signing-keys.js';
import { issuerOf } from './access-token-signer.js';
import { ACCESS_TOKEN_TYP, type AccessTokenClaims } from './claims.js';

const REQUIRED = ['jti', 'sub', 'exp', 'iat', 'client_id'];

/**
 * Verifies an access token's signature, issuer, type and expiry (against the injected clock) and
 * returns its claims. It does not look at the database: revocation is the guard's second step
 * (`AccessTokenStore.findWithClient`).
 *
 * @example const claims = await verifier.verify(bearer); // throws OAuthError('invalid_token')
 */
export class AccessTokenVerifier {
  static inject = [SigningKeys, ConfigToken, ClockToken] as const;
  readonly #issuer: string;

  constructor(
    private readonly keys: SigningKeys,
    config: TollgateConfig,
    private readonly clock: Clock,
  ) {
    this.#issuer = issuerOf(config);
  }

  async verify(token: string): Promise<AccessTokenClaims> {
    const { publicKey, algorithm } = await this.keys.load();
    try {
      const { payload } = await jwtVerify(token, publicKey, {
        algorithms: [algorithm],
        issuer: this.#issuer,
        typ: ACCESS_TOKEN_TYP,
        currentDate: this.clock.now(),
        requiredClaims: REQUIRED,
      });
      return normalize(payload as Record<string, unknown>);
    } catch (err) {
      if (err instanceof OAuthError) throw err;
      const expired = err instanceof errors.JWTExpired;
      throw OAuthError.invalidToken(
        expired ? 'The access token has expired.' : 'The access token is invalid.',
        (err as Error).message,
      );
    }
  }

  /**
   * Checks only the signature and issuer, not the expiry: revocation (RFC 7009) and introspection
   * (RFC 7662) must recognise a token of ours even after it expired. Undefined if it is not ours.
   */
  async verifySignature(token: string): Promise<AccessTokenClaims | undefined> {
    const { publicKey, algorithm } = await this.keys.load();
    try {
      const { payload, protectedHeader } = await compactVerify(token, publicKey, { algorithms: [algorithm] });
      if (protectedHeader.typ !== ACCESS_TOKEN_TYP) return undefined;
      const claims = JSON.parse(new TextDecoder().decode(payload)) as Record<string, unknown>;
      if (claims.iss !== this.#issuer) return undefined;
      return normalize(claims);
    } catch {
      return undefined;
    }
  }
}

function normalize(payload: Record<string, unknown>): AccessTokenClaims {
  const aud = Array.isArray(payload.aud) ? String(payload.aud[0]) : String(payload.aud ?? '');
  const scopes = Array.isArray(payload.scopes)
    ? payload.scopes.map(String)
    : String(payload.scope ?? '')
        .split(' ')
        .filter(Boolean);
  for (const claim of REQUIRED) {
    if (payload[claim] === undefined)
      throw OAuthError.invalidToken('The access token is invalid.', `no ${claim}`);
  }
  return {
    iss: String(payload.iss),
    sub: String(payload.sub),
    aud,
    client_id: String(payload.client_id),
    jti: String(payload.jti),
    iat: Number(payload.iat),
    exp: Number(payload.exp),
    scope: scopes.join(' '),
    scopes,
  };
}
