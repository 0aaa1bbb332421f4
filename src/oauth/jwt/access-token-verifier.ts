import { verify as cryptoVerify, type KeyObject, type VerifyKeyObjectInput } from 'node:crypto';
import { compactVerify, errors, type JWSHeaderParameters, jwtVerify } from 'jose';
import { type Clock, millis } from '../../core/clock.js';
import type { TollgateConfig } from '../../core/config.js';
import { ClockKey, ConfigKey, LoggerKey } from '../../core/keys.js';
import type { Logger } from '../../core/logger.js';
import { OAuthError } from '../errors.js';
import { SigningKeys, type VerificationKey } from '../keys/signing-keys.js';
import { issuerOf, protectedHeader } from './access-token-signer.js';
import { ACCESS_TOKEN_TYP, type AccessTokenClaims } from './claims.js';

const REQUIRED = ['jti', 'sub', 'exp', 'iat', 'client_id'];

/** One key's tokens as we sign them: the header byte for byte, and how to check the signature with `node:crypto`. */
interface OwnKey {
  headerDot: string;
  digest: string | null;
  key: KeyObject | VerifyKeyObjectInput;
}

/** Our own tokens: the current key's first (nearly every token), then every key by its encoded header. */
interface OwnTokens {
  current: OwnKey;
  byHeader: ReadonlyMap<string, OwnKey>;
}

const invalid = (detail: string) => OAuthError.invalidToken({ reason: 'invalid', detail });

/**
 * Verifies an access token's signature, issuer, type and expiry (against the injected clock) and
 * returns its claims. It does not look at the database: revocation is the guard's second step
 * (`AccessTokenStore.findWithClient`).
 *
 * @example const claims = await verifier.verify(bearer); // throws OAuthError('invalid_token')
 */
export class AccessTokenVerifier {
  static inject = [SigningKeys, ConfigKey, ClockKey, LoggerKey] as const;
  readonly #issuer: string;
  readonly #production: boolean;
  readonly #millis: () => number;

  constructor(
    private readonly keys: SigningKeys,
    config: TollgateConfig,
    private readonly clock: Clock,
    private readonly logger?: Logger,
  ) {
    this.#issuer = issuerOf(config);
    this.#production = config.app.env === 'production';
    this.#millis = millis(clock);
  }

  async verify(token: string): Promise<AccessTokenClaims> {
    return this.check(token);
  }

  /**
   * `verify`, synchronously for a token with one of our keys' headers once the keys are loaded
   * (nearly every token): a promise only when it must wait for the keys or for jose. The claims
   * are frozen.
   */
  check(token: string): AccessTokenClaims | Promise<AccessTokenClaims> {
    const own = this.#ownTokens();
    if (own instanceof Promise) return own.then((loaded) => this.#checkWith(token, loaded));
    return this.#checkWith(token, own);
  }

  #checkWith(token: string, own: OwnTokens): AccessTokenClaims | Promise<AccessTokenClaims> {
    if (token.startsWith(own.current.headerDot)) return this.#verifyOwn(token, own.current);
    // A token signed with a previous key (or one this process has not loaded yet: the jose path
    // looks it up by `kid`, which reads the key files again).
    const previous = own.byHeader.get(token.slice(0, token.indexOf('.') + 1));
    if (previous) return this.#verifyOwn(token, previous);
    return this.#verifyForeign(token);
  }

  async #verifyForeign(token: string): Promise<AccessTokenClaims> {
    try {
      const { payload } = await jwtVerify(token, this.#keyFor, {
        algorithms: ALGORITHMS,
        issuer: this.#issuer,
        typ: ACCESS_TOKEN_TYP,
        currentDate: this.clock.now(),
        requiredClaims: REQUIRED,
      });
      return normalize(payload as Record<string, unknown>);
    } catch (err) {
      if (err instanceof OAuthError) throw err;
      // jose checks the claims only once the signature holds: the token is one of our keys'.
      if (err instanceof errors.JWTClaimValidationFailed && err.claim === 'iss') {
        throw this.#otherIssuer(err.payload.iss);
      }
      const reason = err instanceof errors.JWTExpired ? 'expired' : 'invalid';
      throw OAuthError.invalidToken({ reason, detail: (err as Error).message });
    }
  }

  /**
   * A token our keys signed for another issuer: almost always instances sharing keys but not
   * `APP_URL`. Logged at info with both issuers; outside production the 401 says so too.
   */
  #otherIssuer(iss: unknown): OAuthError {
    const detail = `issued by ${JSON.stringify(iss)}, this server's issuer is "${this.#issuer}"`;
    this.logger?.info(
      { iss, issuer: this.#issuer },
      'access token refused: issued for another issuer (APP_URL must be the same on every instance)',
    );
    if (this.#production) return invalid(detail);
    return new OAuthError(
      'invalid_token',
      'The access token was issued by another issuer: every instance needs the same APP_URL.',
      { reason: 'invalid', detail },
    );
  }

  /** jose's key lookup: the key named by the header's `kid` (the current one without a `kid`), for its algorithm only. */
  readonly #keyFor = async (header: JWSHeaderParameters) => {
    const key = await this.keys.find(header.kid);
    if (!key) throw new errors.JWKSNoMatchingKey();
    if (header.alg !== key.algorithm) throw new errors.JOSEAlgNotAllowed('the key is for another algorithm');
    return key.publicKey;
  };

  #own: Promise<OwnTokens> | undefined;
  /** What `#own` resolved to, while the keys it was made from are still the loaded ones. */
  #ownNow: OwnTokens | undefined;
  #ownFrom: Promise<unknown> | undefined;

  #ownTokens(): OwnTokens | Promise<OwnTokens> {
    const loading = this.keys.load();
    if (this.#own && this.#ownFrom === loading) return this.#ownNow ?? this.#own;
    this.#ownFrom = loading;
    this.#ownNow = undefined;
    this.#own = loading.then(({ keys }) => {
      const all = keys.map(ownKey);
      const own = { current: all[0]!, byHeader: new Map(all.map((key) => [key.headerDot, key])) };
      if (this.#ownFrom === loading) this.#ownNow = own;
      return own;
    });
    return this.#own;
  }

  /**
   * A token with exactly the header we sign with (so `alg`, `typ` and `kid` are ours): checked with
   * `node:crypto` synchronously, RS256 included. Verifying is cheap (an RS256 check is ~25 µs),
   * unlike signing: handing it to libuv's pool (as jose's WebCrypto does) cost 42 µs of CPU per
   * call instead of 25, and under load it kept every request's objects alive into the old
   * generation (peak RSS 197–275 MiB against 161–170 MiB; docs/benchmarks.md). The same checks as
   * the jose path: signature, issuer, expiry and not-before against the injected clock (no leeway,
   * as jose's default), and the required claims.
   */
  #verifyOwn(token: string, own: OwnKey): AccessTokenClaims {
    const dot = token.indexOf('.', own.headerDot.length);
    if (dot < 0 || token.indexOf('.', dot + 1) >= 0) throw invalid('not a compact JWS');
    const signature = Buffer.from(token.slice(dot + 1), 'base64url');
    const input = Buffer.from(token.slice(0, dot));
    if (!cryptoVerify(own.digest, input, own.key, signature)) throw invalid('signature verification failed');
    let payload: Record<string, unknown>;
    try {
      payload = JSON.parse(Buffer.from(token.slice(own.headerDot.length, dot), 'base64url').toString('utf8'));
    } catch {
      throw invalid('the payload is not JSON');
    }
    if (typeof payload !== 'object' || payload === null) throw invalid('the payload is not an object');
    if (payload.iss !== this.#issuer) throw this.#otherIssuer(payload.iss);
    const now = Math.floor(this.#millis() / 1000);
    if (typeof payload.exp !== 'number') throw invalid('"exp" is not a number');
    if (payload.exp <= now) throw OAuthError.invalidToken({ reason: 'expired', detail: '"exp" has passed' });
    if (payload.nbf !== undefined && (typeof payload.nbf !== 'number' || payload.nbf > now)) {
      throw invalid('"nbf" is in the future');
    }
    if (typeof payload.iat !== 'number') throw invalid('"iat" is not a number');
    return normalize(payload);
  }

  /**
   * Checks only the signature and issuer, not the expiry: revocation (RFC 7009) and introspection
   * (RFC 7662) must recognise a token of ours even after it expired. Undefined if it is not ours.
   */
  async verifySignature(token: string): Promise<AccessTokenClaims | undefined> {
    try {
      const { payload, protectedHeader } = await compactVerify(token, this.#keyFor, {
        algorithms: ALGORITHMS,
      });
      if (protectedHeader.typ !== ACCESS_TOKEN_TYP) return undefined;
      const claims = JSON.parse(new TextDecoder().decode(payload)) as Record<string, unknown>;
      if (claims.iss !== this.#issuer) return undefined;
      return normalize(claims);
    } catch {
      return undefined;
    }
  }
}

const ALGORITHMS: string[] = ['RS256', 'ES256', 'EdDSA'];

function ownKey({ algorithm, kid, verifyKey }: VerificationKey): OwnKey {
  const headerDot = `${Buffer.from(protectedHeader(algorithm, kid)).toString('base64url')}.`;
  if (algorithm === 'ES256')
    return { headerDot, digest: 'sha256', key: { key: verifyKey, dsaEncoding: 'ieee-p1363' } };
  if (algorithm === 'RS256') return { headerDot, digest: 'sha256', key: verifyKey };
  return { headerDot, digest: null, key: verifyKey };
}

function normalize(payload: Record<string, unknown>): AccessTokenClaims {
  const aud = Array.isArray(payload.aud) ? String(payload.aud[0]) : String(payload.aud ?? '');
  const scopes = Array.isArray(payload.scopes)
    ? payload.scopes.map(String)
    : String(payload.scope ?? '')
        .split(' ')
        .filter(Boolean);
  for (const claim of REQUIRED) {
    if (payload[claim] === undefined) throw invalid(`no ${claim}`);
  }
  const claims: AccessTokenClaims = {
    iss: String(payload.iss),
    sub: String(payload.sub),
    aud,
    client_id: String(payload.client_id),
    jti: String(payload.jti),
    iat: Number(payload.iat),
    exp: Number(payload.exp),
    scope: scopes.join(' '),
    scopes: Object.freeze(scopes) as string[],
  };
  const cnf = payload.cnf as { jkt?: unknown } | undefined;
  if (typeof cnf?.jkt === 'string') claims.cnf = { jkt: cnf.jkt };
  if (Number.isSafeInteger(payload.org_id)) claims.org_id = payload.org_id as number;
  return Object.freeze(claims);
}
