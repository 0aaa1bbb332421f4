import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * RFC 9449 §8 and §9: server-provided DPoP nonces without a shared store. A nonce names a time
 * window and carries an HMAC of it under the application key, so every instance with the same key
 * issues and accepts the same nonces: `<window in base 36>.<22 base64url characters>`. The current
 * window's nonce is handed out; it and the previous window's are accepted, so a nonce lives
 * between one and two `lifetimeSeconds`, and a client that keeps the last `DPoP-Nonce` it was sent
 * always holds a good one.
 */
export class DpopNonces {
  readonly #key: Buffer;

  constructor(
    appKey: Uint8Array,
    readonly lifetimeSeconds: number,
  ) {
    // A key of its own, so nothing else keyed by the application key can be taken for a nonce.
    this.#key = createHmac('sha256', appKey).update('tollgate dpop-nonce key').digest();
  }

  /** The nonce to hand out at `nowMs`. */
  current(nowMs: number): string {
    return this.#nonce(this.#window(nowMs));
  }

  /** Whether a proof's `nonce` claim is one this server handed out recently. */
  accepts(nonce: unknown, nowMs: number): boolean {
    if (typeof nonce !== 'string' || nonce.length > 64) return false;
    const window = Number.parseInt(nonce.slice(0, nonce.indexOf('.')), 36);
    const now = this.#window(nowMs);
    if (window !== now && window !== now - 1) return false;
    const expected = Buffer.from(this.#nonce(window));
    const given = Buffer.from(nonce);
    return given.length === expected.length && timingSafeEqual(given, expected);
  }

  #window(nowMs: number): number {
    return Math.floor(nowMs / 1000 / this.lifetimeSeconds);
  }

  #nonce(window: number): string {
    const mac = createHmac('sha256', this.#key).update(String(window)).digest('base64url').slice(0, 22);
    return `${window.toString(36)}.${mac}`;
  }
}
