import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { DpopNonces } from './nonces.js';

describe('DpopNonces (RFC 9449 §8: server nonces without a shared store)', () => {
  const key = randomBytes(32);
  const t0 = Date.parse('2026-11-25T12:00:00Z');

  it('two instances with the same key hand out and accept the same nonce; another key does not', () => {
    const a = new DpopNonces(key, 300);
    const b = new DpopNonces(Buffer.from(key), 300);
    expect(a.current(t0)).toBe(b.current(t0));
    expect(b.accepts(a.current(t0), t0)).toBe(true);
    expect(new DpopNonces(randomBytes(32), 300).accepts(a.current(t0), t0)).toBe(false);
  });

  it('a nonce is accepted in its window and the next, then refused; the handed-out nonce rotates', () => {
    const nonces = new DpopNonces(key, 300);
    const nonce = nonces.current(t0);
    expect(nonces.accepts(nonce, t0 + 299_000)).toBe(true);
    expect(nonces.current(t0 + 300_000)).not.toBe(nonce);
    expect(nonces.accepts(nonce, t0 + 300_000)).toBe(true);
    expect(nonces.accepts(nonce, t0 + 600_000)).toBe(false);
  });

  it('refuses forged, future and malformed nonces', () => {
    const nonces = new DpopNonces(key, 300);
    const nonce = nonces.current(t0);
    const [window] = nonce.split('.');
    expect(nonces.accepts(`${window}.AAAAAAAAAAAAAAAAAAAAAA`, t0)).toBe(false);
    expect(nonces.accepts(nonces.current(t0 + 600_000), t0)).toBe(false);
    for (const bad of [undefined, 42, '', '.', 'x'.repeat(100), nonce.slice(0, -1)]) {
      expect(nonces.accepts(bad, t0)).toBe(false);
    }
  });
});
