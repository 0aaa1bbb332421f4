import {
  constants,
  createHash,
  createPublicKey,
  verify as cryptoVerify,
  type JsonWebKey,
  type KeyObject,
  type VerifyKeyObjectInput,
} from 'node:crypto';

/** How each allowed `alg` is checked with `node:crypto`: the digest and the key's signature options. */
const SIGNATURE: Record<string, { digest: string | null; options: Partial<VerifyKeyObjectInput> }> = {
  ES256: { digest: 'sha256', options: { dsaEncoding: 'ieee-p1363' } },
  ES384: { digest: 'sha384', options: { dsaEncoding: 'ieee-p1363' } },
  EdDSA: { digest: null, options: {} },
  RS256: { digest: 'sha256', options: {} },
  PS256: {
    digest: 'sha256',
    options: { padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: constants.RSA_PSS_SALTLEN_DIGEST },
  },
};

/** The key type each `alg` needs: a proof whose `jwk` is of another type is refused. */
const KEY_TYPE: Record<string, string> = {
  ES256: 'EC',
  ES384: 'EC',
  EdDSA: 'OKP',
  RS256: 'RSA',
  PS256: 'RSA',
};
const CURVE: Record<string, string> = { ES256: 'P-256', ES384: 'P-384' };

/** RFC 7638 §3.2: the required members of each key type, in lexicographic order. */
const THUMBPRINT_MEMBERS: Record<string, readonly string[]> = {
  EC: ['crv', 'kty', 'x', 'y'],
  OKP: ['crv', 'kty', 'x'],
  RSA: ['e', 'kty', 'n'],
};

/** A proof key, imported once: a client signs every proof with the same key. */
export interface ProofKey {
  /** RFC 7638 SHA-256 thumbprint, base64url: the `cnf.jkt` a token binds to. */
  readonly jkt: string;
  readonly alg: string;
  verify(signingInput: Buffer, signature: Buffer): boolean;
}

const CACHE_SIZE = 1_000;

/**
 * Proof keys by thumbprint and `alg`. Importing a JWK through WebCrypto and verifying through it
 * (jose's path) cost 240–410 µs of CPU per proof here; a cached `KeyObject` and a synchronous
 * `node:crypto` verification cost a fraction of that (docs/benchmarks.md).
 */
export class ProofKeys {
  readonly #keys = new Map<string, ProofKey>();

  /** The key of a proof header's `jwk` for `alg`; throws a plain Error when it is not a usable public key. */
  of(jwk: Record<string, unknown>, alg: string): ProofKey {
    const kty = KEY_TYPE[alg];
    if (!kty || jwk.kty !== kty) throw new Error(`the jwk is not a ${kty ?? 'known'} key for ${alg}`);
    if (CURVE[alg] && jwk.crv !== CURVE[alg]) throw new Error(`the jwk is not on ${CURVE[alg]}`);
    if (alg === 'EdDSA' && jwk.crv !== 'Ed25519') throw new Error('the jwk is not an Ed25519 key');
    const jkt = thumbprint(jwk, kty);
    const cacheKey = `${alg}:${jkt}`;
    const cached = this.#keys.get(cacheKey);
    if (cached) return cached;
    const key = proofKey(jwk, alg, jkt);
    if (this.#keys.size >= CACHE_SIZE) this.#keys.delete(this.#keys.keys().next().value!);
    this.#keys.set(cacheKey, key);
    return key;
  }
}

function thumbprint(jwk: Record<string, unknown>, kty: string): string {
  const members = THUMBPRINT_MEMBERS[kty]!;
  const canonical: Record<string, unknown> = {};
  for (const name of members) {
    if (typeof jwk[name] !== 'string') throw new Error(`the jwk has no "${name}"`);
    canonical[name] = jwk[name];
  }
  return createHash('sha256').update(JSON.stringify(canonical)).digest('base64url');
}

function proofKey(jwk: Record<string, unknown>, alg: string, jkt: string): ProofKey {
  const { kty, crv, x, y, n, e } = jwk;
  const publicKey: KeyObject = createPublicKey({
    key: { kty, crv, x, y, n, e } as JsonWebKey,
    format: 'jwk',
  });
  if (publicKey.type !== 'public') throw new Error('the jwk is not a public key');
  // As jose refuses them: RSA keys under 2048 bits are too weak to sign with.
  if (kty === 'RSA' && (publicKey.asymmetricKeyDetails?.modulusLength ?? 0) < 2048)
    throw new Error('the RSA key is shorter than 2048 bits');
  const { digest, options } = SIGNATURE[alg]!;
  const key = { key: publicKey, ...options } as VerifyKeyObjectInput;
  return { jkt, alg, verify: (input, signature) => cryptoVerify(digest, input, key, signature) };
}
