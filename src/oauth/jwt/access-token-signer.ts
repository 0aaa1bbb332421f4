import type { KeyObject, SignKeyObjectInput } from 'node:crypto';
import type { TollgateConfig } from '../../core/config.js';
import { ConfigKey } from '../../core/keys.js';
import type { SigningAlgorithm } from '../config.js';
import { SigningKeys } from '../keys/signing-keys.js';
import { ACCESS_TOKEN_TYP, type AccessTokenClaims } from './claims.js';
import { signCompact } from './compact-jws.js';

export interface AccessTokenSubject {
  tokenId: string;
  userId: number | null;
  clientId: string;
  scopes: readonly string[];
  issuedAt: number;
  expiresAt: number;
  /** RFC 8707: the resource the token is for, its `aud`; absent or null: the client id. */
  audience?: string | null;
  /** RFC 9449: the DPoP key's thumbprint, for `cnf.jkt`; absent or null: a bearer token. */
  jkt?: string | null;
  /** The organization the token acts for, its `org_id`; absent or null: none. */
  organizationId?: number | null;
}

/** What `crypto.sign` needs for one JWS algorithm and key (RFC 7518 §3.1, RFC 8037 §3.1). */
export interface Signing {
  readonly algorithm: SigningAlgorithm;
  /** The key's `kid`: the token row records it (`tollgate keys:prune` reads them). */
  readonly kid: string;
  /** The base64url protected header and its trailing dot: the same for every token. */
  headerDot: string;
  digest: string | null;
  key: KeyObject | SignKeyObjectInput;
  /**
   * Sign on libuv's thread pool instead of the event loop. Worth it for RSA only: an RS256
   * signature costs ~250 µs, the hop ~20 µs, and the HTTP thread serves other requests meanwhile
   * (measured: +40% tokens/s on two cores for +5% CPU per token). An ES256 or Ed25519 signature
   * costs less than the hop, so those sign inline.
   */
  offload: boolean;
}

/** The JWS protected header of every access token (the verifier recognises our tokens by it). */
export function protectedHeader(algorithm: SigningAlgorithm, kid: string): string {
  return JSON.stringify({ alg: algorithm, typ: ACCESS_TOKEN_TYP, kid });
}

function signingFor(algorithm: SigningAlgorithm, key: KeyObject, kid: string): Signing {
  const headerDot = `${Buffer.from(protectedHeader(algorithm, kid)).toString('base64url')}.`;
  switch (algorithm) {
    case 'RS256':
      return { algorithm, kid, headerDot, digest: 'sha256', key, offload: true };
    case 'ES256':
      // RFC 7518 §3.4: R || S, not the DER that OpenSSL produces by default.
      return {
        algorithm,
        kid,
        headerDot,
        digest: 'sha256',
        key: { key, dsaEncoding: 'ieee-p1363' },
        offload: false,
      };
    case 'EdDSA':
      return { algorithm, kid, headerDot, digest: null, key, offload: false };
  }
}

/**
 * Signs access tokens (compact JWS, RFC 7515 §7.1) with the configured key, RS256 by default.
 * `node:crypto` directly rather than jose's `SignJWT`: issuance is bounded by the signature
 * (DESIGN.md quality bars), and jose's builder objects, header checks and WebCrypto round trip
 * cost a fifth again of an RSA signature. The header is serialised once; tokens verify with jose.
 */
export class AccessTokenSigner {
  static inject = [SigningKeys, ConfigKey] as const;
  readonly #issuer: string;
  #signing: Promise<Signing> | undefined;
  /** The `SigningKeys.load()` promise `#signing` was derived from: a reset makes a new one. */
  #signingFrom: Promise<unknown> | undefined;

  constructor(
    private readonly keys: SigningKeys,
    config: TollgateConfig,
  ) {
    this.#issuer = issuerOf(config);
  }

  get issuer(): string {
    return this.#issuer;
  }

  /**
   * The key the next tokens are signed with. Pass it to `sign` to know the `kid` before signing
   * (the token row is written while the signature runs).
   */
  currentKey(): Promise<Signing> {
    this.keys.refreshSoon();
    return this.#loadSigning();
  }

  async sign(subject: AccessTokenSubject, key?: Signing): Promise<string> {
    const signing = key ?? (await this.currentKey());
    const claims: AccessTokenClaims = {
      iss: this.#issuer,
      sub: subject.userId === null ? subject.clientId : String(subject.userId),
      aud: subject.audience ?? subject.clientId,
      client_id: subject.clientId,
      jti: subject.tokenId,
      iat: subject.issuedAt,
      exp: subject.expiresAt,
      scope: subject.scopes.join(' '),
      scopes: [...subject.scopes],
    };
    if (subject.jkt) claims.cnf = { jkt: subject.jkt };
    if (subject.organizationId != null) claims.org_id = subject.organizationId;
    return signCompact(signing, signing.headerDot, claims);
  }

  /** Forgets the derived header and key with the keys themselves (`SigningKeys.reset()`). */
  #loadSigning(): Promise<Signing> {
    const loading = this.keys.load();
    if (this.#signing && this.#signingFrom === loading) return this.#signing;
    this.#signingFrom = loading;
    this.#signing = loading.then(({ algorithm, signingKey, kid }) => signingFor(algorithm, signingKey, kid));
    return this.#signing;
  }
}

/** The issuer identifier (RFC 8414 §2): the application URL without a trailing slash. */
export function issuerOf(config: TollgateConfig): string {
  return config.app.url.replace(/\/+$/, '');
}
