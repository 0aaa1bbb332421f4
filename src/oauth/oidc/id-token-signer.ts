import { createHash } from 'node:crypto';
import type { SigningAlgorithm } from '../config.js';
import { AccessTokenSigner, type Signing } from '../jwt/access-token-signer.js';
import { encodeHeader, signCompact } from '../jwt/compact-jws.js';

/** OpenID Connect Core §2: the ID token's own claims; the user's claims come beside them. */
export interface IdTokenClaims {
  iss: string;
  sub: string;
  aud: string;
  exp: number;
  iat: number;
  auth_time?: number;
  nonce?: string;
  at_hash?: string;
  azp: string;
  [claim: string]: unknown;
}

/**
 * Signs ID tokens with the access tokens' current key and algorithm (so one JWKS verifies both),
 * under their own header: `typ` is `JWT`, never `at+jwt`, so an ID token is refused where an
 * access token is expected (RFC 9068 §4).
 */
export class IdTokenSigner {
  static inject = [AccessTokenSigner] as const;
  readonly #headers = new Map<string, string>();

  constructor(private readonly keys: AccessTokenSigner) {}

  /** Signs `claims`, adding `at_hash` for the access token issued with it (Core §3.1.3.6). */
  async sign(claims: IdTokenClaims, accessToken?: string): Promise<string> {
    const signing = await this.keys.currentKey();
    const payload = accessToken ? { ...claims, at_hash: atHash(accessToken, signing.algorithm) } : claims;
    return signCompact(signing, this.#header(signing), payload);
  }

  /** Signs another JWT of the OpenID provider under the same header (a signed userinfo response, Core §5.3.2). */
  async signClaims(claims: Record<string, unknown>): Promise<string> {
    const signing = await this.keys.currentKey();
    return signCompact(signing, this.#header(signing), claims);
  }

  #header(signing: Signing): string {
    let header = this.#headers.get(signing.kid);
    if (header === undefined) {
      header = encodeHeader({ alg: signing.algorithm, typ: 'JWT', kid: signing.kid });
      this.#headers.set(signing.kid, header);
    }
    return header;
  }
}

/**
 * Core §3.1.3.6: the left half of the hash of the access token's ASCII octets, base64url. The
 * hash is the one of the JWS algorithm: SHA-256 for RS256 and ES256, SHA-512 for EdDSA (Ed25519).
 */
export function atHash(accessToken: string, algorithm: SigningAlgorithm): string {
  const digest = createHash(algorithm === 'EdDSA' ? 'sha512' : 'sha256')
    .update(accessToken, 'ascii')
    .digest();
  return digest.subarray(0, digest.length / 2).toString('base64url');
}
