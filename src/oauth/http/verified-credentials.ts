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
 * Client credentials this instance saw authenticate within the last minutes, by hash. A request
 * presenting them again is not a guess, so it skips the failure counters: a busy confidential
 * client costs no store round trip. The endpoint still checks the secret on every request; a
 * failure forgets the entry.
 */
export class VerifiedCredentials {
  readonly #entries = new Map<string, number>();

  static digest(client: PresentedClient): string {
    return createHash('sha256')
      .update(`${client.id}\0${client.secret ?? ''}`)
      .digest('base64url');
  }

  has(digest: string): boolean {
    const until = this.#entries.get(digest);
    if (until === undefined) return false;
    if (until > performance.now()) return true;
    this.#entries.delete(digest);
    return false;
  }

  add(digest: string): void {
    if (this.#entries.size >= SIZE) this.#entries.clear();
    this.#entries.set(digest, performance.now() + TTL_MS);
  }

  forget(digest: string): void {
    this.#entries.delete(digest);
  }
}
