import { describe, expect, it } from 'vitest';
import { decimal } from './decimal.js';

describe('decimal', () => {
  it('writes whole numbers as String() does', () => {
    const samples = [0, 7, 10, 999, 1000, 1001, 10_000, 100_200, 999_999, 1_000_000, 1_002_003, 999_999_999];
    for (const n of [...samples, 1_000_000_000, Number.MAX_SAFE_INTEGER]) expect(decimal(n)).toBe(String(n));
    for (let n = 0; n < 5_000_000; n += 997) expect(decimal(n)).toBe(String(n));
  });

  it('leaves anything else to String()', () => {
    for (const n of [-1, 1.5, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 60])
      expect(decimal(n)).toBe(String(n));
  });
});
