import { SignJWT } from 'jose';
import type { TollgateConfig } from '../../foundation/config.js';
import { ConfigToken } from '../../foundation/tokens.js';
import { SigningKeys } from '../keys/signing-keys.js';
import { ACCESS_TOKEN_TYP, type AccessTokenClaims } from './claims.js';

export interface AccessTokenSubject {
  tokenId: string;
  userId: number | null;
  clientId: string;
  scopes: readonly string[];
  issuedAt: number;
  expiresAt: number;
}

/** Signs access tokens with the configured key (RS256 by default); the key is imported once. */
export class AccessTokenSigner {
  static inject = [SigningKeys, ConfigToken] as const;
  readonly #issuer: string;

  constructor(
    private readonly keys: SigningKeys,
    config: TollgateConfig,
  ) {
    this.#issuer = issuerOf(config);
  }

  get issuer(): string {
    return this.#issuer;
  }

  async sign(subject: AccessTokenSubject): Promise<string> {
    const { privateKey, algorithm, kid } = await this.keys.load();
    const claims: Omit<AccessTokenClaims, 'iss' | 'aud' | 'sub' | 'jti' | 'iat' | 'exp'> = {
      client_id: subject.clientId,
      scope: subject.scopes.join(' '),
      scopes: [...subject.scopes],
    };
    return new SignJWT(claims)
      .setProtectedHeader({ alg: algorithm, typ: ACCESS_TOKEN_TYP, kid })
      .setIssuer(this.#issuer)
      .setSubject(subject.userId === null ? subject.clientId : String(subject.userId))
      .setAudience(subject.clientId)
      .setJti(subject.tokenId)
      .setIssuedAt(subject.issuedAt)
      .setExpirationTime(subject.expiresAt)
      .sign(privateKey);
  }
}

/** The issuer identifier (RFC 8414 §2): the application URL without a trailing slash. */
export function issuerOf(config: TollgateConfig): string {
  return config.app.url.replace(/\/+$/, '');
}
