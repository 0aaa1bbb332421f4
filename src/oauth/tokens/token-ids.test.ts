import { describe, expect, it } from 'vitest';
import { accessTokenId } from './token-ids.js';

describe('accessTokenId', () => {
  it('is 160 random bits in hex, distinct across pool refills', () => {
    const ids = Array.from({ length: 1000 }, accessTokenId);
    for (const id of ids) expect(id).toMatch(/^[0-9a-f]{40}$/);
    expect(new Set(ids).size).toBe(ids.length);
  });
});
