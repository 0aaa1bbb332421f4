import { createHash } from 'node:crypto';
import { ProofKeys } from './proof-key.js';

/** RFC 9449 §5.1: the asymmetric algorithms a proof may be signed with (advertised in metadata). */
export const DPOP_ALGORITHMS = ['ES256', 'EdDSA', 'RS256', 'PS256', 'ES384'] as const;

/** RFC 9449 §4.2: the `typ` of a proof. */
const DPOP_TYP = 'dpop+jwt';

/** What a proof must match: the request it came with, and at a resource the access token. */
export interface ProofExpectation {
  /** The HTTP method (`htm`). */
  method: string;
  /** The URLs `htu` may equal, without query and fragment (what the client sees, what we serve). */
  urls: readonly string[];
  /** Unix seconds now, by the injected clock. */
  now: number;
  /** Seconds either side of now that `iat` may be. */
  windowSeconds: number;
  /** At a protected resource: the access token, whose hash is `ath`. */
  accessToken?: string;
}

/** A checked proof: its key's thumbprint (RFC 7638, the `cnf.jkt` it binds to) and its `jti`. */
export interface CheckedProof {
  jkt: string;
  jti: string;
  iat: number;
  /** RFC 9449 §8: the server-provided nonce it carries, if any. */
  nonce: unknown;
}

/** Why a proof was refused, for the logs; the client sees a fixed description. */
export class ProofRefused extends Error {}

/** RFC 9449 §8: the proof lacks a current server nonce; `nonce` is the one to use. */
export class NonceRequired extends Error {
  constructor(
    readonly nonce: string,
    reason: string,
  ) {
    super(reason);
  }
}

const PRIVATE_MEMBERS = ['d', 'p', 'q', 'dp', 'dq', 'qi', 'k'] as const;

/**
 * RFC 9449 §4.3: one DPoP proof JWT checked against its request. Signature by the embedded public
 * key (imported once per key: `ProofKeys`); `typ`, `alg`, `htm`, `htu`, `iat` window, `jti`
 * present, `ath` at a resource. The `jti` replay check is the caller's (`ProofReplay`), since it
 * is the only step with state.
 */
export async function checkProof(
  proof: string,
  expected: ProofExpectation,
  keys: ProofKeys = new ProofKeys(),
): Promise<CheckedProof> {
  const parts = proof.split('.');
  if (parts.length !== 3) throw new ProofRefused('not a compact JWS');
  const header = json(parts[0]!, 'header');
  if (header.typ !== DPOP_TYP) throw new ProofRefused('typ is not dpop+jwt');
  const alg = String(header.alg);
  if (!(DPOP_ALGORITHMS as readonly string[]).includes(alg))
    throw new ProofRefused(`alg ${alg} is not allowed`);
  if (header.crit !== undefined) throw new ProofRefused('crit is not supported');
  const jwk = header.jwk as Record<string, unknown> | undefined;
  if (!jwk || typeof jwk !== 'object' || Array.isArray(jwk)) throw new ProofRefused('no jwk header');
  if (PRIVATE_MEMBERS.some((m) => m in jwk)) throw new ProofRefused('the jwk holds a private key');
  let key: ReturnType<ProofKeys['of']>;
  try {
    key = keys.of(jwk, alg);
  } catch (err) {
    throw new ProofRefused(`jwk: ${(err as Error).message}`);
  }
  const signingInput = Buffer.from(`${parts[0]}.${parts[1]}`);
  let valid = false;
  try {
    valid = key.verify(signingInput, Buffer.from(parts[2]!, 'base64url'));
  } catch {
    valid = false;
  }
  if (!valid) throw new ProofRefused('signature verification failed');
  const payload = json(parts[1]!, 'payload');
  const { htm, htu, iat, jti, ath, nonce, exp } = payload;
  if (typeof jti !== 'string' || jti.length === 0 || jti.length > 256) throw new ProofRefused('bad jti');
  if (htm !== expected.method) throw new ProofRefused('htm does not match');
  if (typeof htu !== 'string' || !expected.urls.includes(withoutQuery(htu)))
    throw new ProofRefused('htu does not match');
  if (typeof iat !== 'number' || Math.abs(iat - expected.now) > expected.windowSeconds)
    throw new ProofRefused('iat outside the window');
  if (exp !== undefined && (typeof exp !== 'number' || exp <= expected.now))
    throw new ProofRefused('exp has passed');
  if (expected.accessToken !== undefined && ath !== accessTokenHash(expected.accessToken))
    throw new ProofRefused('ath does not match the access token');
  return { jkt: key.jkt, jti, iat, nonce };
}

/** A JWS segment's JSON object, or a refusal naming the segment. */
function json(segment: string, name: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(segment, 'base64url').toString('utf8'));
  } catch {
    throw new ProofRefused(`the ${name} is not JSON`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new ProofRefused(`the ${name} is not an object`);
  return value as Record<string, unknown>;
}

/** RFC 9449 §4.2 `ath`: base64url SHA-256 of the access token's ASCII. */
export function accessTokenHash(token: string): string {
  return createHash('sha256').update(token, 'ascii').digest('base64url');
}

/** RFC 9449 §4.3 item 9: `htu` compared without its query and fragment. */
export function withoutQuery(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.origin}${parsed.pathname}`;
  } catch {
    return '';
  }
}
