import { describe, expect, it } from 'vitest';
import { checkApiKey, generateApiKey, lastFour, looksLikeApiKey } from './key-format.js';

describe('API key format', () => {
  it('has the prefix of its environment, 36 base62 characters, and a matching checksum', () => {
    const live = generateApiKey('live');
    const test = generateApiKey('test');
    expect(live).toMatch(/^tg_live_[0-9A-Za-z]{36}$/);
    expect(test).toMatch(/^tg_test_[0-9A-Za-z]{36}$/);
    expect(checkApiKey(live)).toBe('live');
    expect(checkApiKey(test)).toBe('test');
    expect(looksLikeApiKey(live)).toBe(true);
    expect(lastFour(live)).toBe(live.slice(-4));
  });

  it('refuses a key with one character changed (the checksum), a wrong prefix or length', () => {
    const key = generateApiKey('live');
    const i = 12;
    const changed = key.slice(0, i) + (key[i] === 'a' ? 'b' : 'a') + key.slice(i + 1);
    expect(checkApiKey(changed)).toBeUndefined();
    expect(checkApiKey(key.replace('tg_live_', 'tg_prod_'))).toBeUndefined();
    expect(checkApiKey(`${key}x`)).toBeUndefined();
    expect(checkApiKey('')).toBeUndefined();
  });

  it('draws different keys', () => {
    const keys = new Set(Array.from({ length: 1000 }, () => generateApiKey('test')));
    expect(keys.size).toBe(1000);
  });
});
