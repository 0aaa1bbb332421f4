import { createHash } from 'node:crypto';

/** What a token request presents to authenticate its client (RFC 6749 §2.3.1). */
export interface PresentedClient {
  id: string;
  /** The secret, when one is presented: only then is there something to guess. */
  secret: string | undefined;
}

/**
 * The client a token request names: HTTP Basic, else `client_id`/`client_secret` form fields.
 * Lenient on purpose — the endpoint validates; this only decides what a failure counts against
 * (a malformed header counts as a secret presented for the id it names, or for none).
 */
export function presentedClient(
  params: Record<string, unknown>,
  authorization: string | undefined,
): PresentedClient | undefined {
  if (authorization && /^basic /i.test(authorization)) {
    const decoded = Buffer.from(authorization.slice(6).trim(), 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    const decode = (s: string) => {
      try {
        return decodeURIComponent(s.replace(/\+/g, ' '));
      } catch {
        return s;
      }
    };
    if (colon < 0) return { id: '', secret: decoded };
    return { id: decode(decoded.slice(0, colon)), secret: decode(decoded.slice(colon + 1)) };
  }
  const id = typeof params.client_id === 'string' ? params.client_id : undefined;
  const secret = typeof params.client_secret === 'string' ? params.client_secret : undefined;
  return id === undefined && secret === undefined ? undefined : { id: id ?? '', secret };
}

const SIZE = 10_000;
const TTL_MS = 10 * 60_000;

/**
 * Client credentials this instance saw authenticate within the last minutes. A request
 * presenting them again is not a guess, so it skips the failure counters: a busy confidential
 * client costs no store round trip. The endpoint still checks the secret on every request; a
 * failure forgets the entry.
 */
export class VerifiedCredentials {
  readonly #entries = new Map<string, number>();

  /**
   * What the credentials a request presents are remembered by, or undefined when it presents no
   * secret (see `presentedClient`). Always a hash, so no secret is kept in memory: for HTTP
   * Basic, of the header as sent (nothing to decode); for form fields, of the id and the secret.
   */
  static key(params: Record<string, unknown>, authorization: string | undefined): string | undefined {
    if (authorization && /^basic /i.test(authorization)) return sha256(authorization);
    if (typeof params.client_secret !== 'string') return undefined;
    const id = typeof params.client_id === 'string' ? params.client_id : '';
    return sha256(`${id}\0${params.client_secret}`);
  }

  has(key: string): boolean {
    const until = this.#entries.get(key);
    if (until === undefined) return false;
    if (until > performance.now()) return true;
    this.#entries.delete(key);
    return false;
  }

  add(key: string): void {
    if (this.#entries.size >= SIZE) this.#entries.clear();
    this.#entries.set(key, performance.now() + TTL_MS);
  }

  forget(key: string): void {
    this.#entries.delete(key);
  }
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('base64url');
