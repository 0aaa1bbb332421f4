import { describe, expect, it } from 'vitest';
import { accessTokenId } from './token-ids.js';

describe('accessTokenId', () => {
  it('is 40 hex digits, distinct across pool refills', () => {
    const ids = Array.from({ length: 1000 }, () => accessTokenId());
    for (const id of ids) expect(id).toMatch(/^[0-9a-f]{40}$/);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('starts with the issuing millisecond, so later ids sort after earlier ones', () => {
    const at = Date.UTC(2026, 10, 25, 9, 0, 0, 123);
    expect(accessTokenId(at).slice(0, 12)).toBe(at.toString(16).padStart(12, '0'));
    const ids = [at - 86_400_000, at - 1, at, at + 1].map((ms) => accessTokenId(ms));
    expect([...ids].sort()).toEqual(ids);
  });

  it('keeps 112 random bits after the time: ids of one millisecond differ', () => {
    const at = Date.now();
    const ids = Array.from({ length: 500 }, () => accessTokenId(at));
    expect(new Set(ids.map((id) => id.slice(12))).size).toBe(500);
  });
});
