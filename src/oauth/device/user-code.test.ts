import { describe, expect, it } from 'vitest';
import { formatUserCode, generateUserCode, normalizeUserCode, userCodeHash } from './user-code.js';

describe('user codes (RFC 8628 §6.1)', () => {
  it('are eight consonants shown as XXXX-XXXX', () => {
    for (let i = 0; i < 200; i++)
      expect(generateUserCode()).toMatch(/^[BCDFGHJKLMNPQRSTVWXZ]{4}-[BCDFGHJKLMNPQRSTVWXZ]{4}$/);
  });

  it('match case-insensitively, ignoring the dash and spaces', () => {
    expect(normalizeUserCode('wdjb-mjht')).toBe('WDJBMJHT');
    expect(normalizeUserCode(' WDJB MJHT ')).toBe('WDJBMJHT');
    expect(userCodeHash(normalizeUserCode('wdjbmjht')!)).toBe(userCodeHash('WDJBMJHT'));
    expect(formatUserCode('WDJBMJHT')).toBe('WDJB-MJHT');
  });

  it('refuse the wrong length and characters outside the alphabet (vowels, digits)', () => {
    expect(normalizeUserCode('WDJB-MJH')).toBeUndefined();
    expect(normalizeUserCode('WDJB-MJHA')).toBeUndefined();
    expect(normalizeUserCode('WDJB-MJH0')).toBeUndefined();
    expect(normalizeUserCode('')).toBeUndefined();
  });
});
