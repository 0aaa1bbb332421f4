import { describe, expect, it } from 'vitest';
import { LruCache } from './lru.js';

describe('LruCache', () => {
  it('forgets the least recently used entry when full', () => {
    const cache = new LruCache<string, number>(2);
    cache.set('a', 1).set('b', 2);
    expect(cache.get('a')).toBe(1); // a is now the most recent
    cache.set('c', 3);
    expect(cache.has('b')).toBe(false);
    expect(cache.get('a')).toBe(1);
    expect(cache.get('c')).toBe(3);
    expect(cache.size).toBe(2);
  });

  it('an entry used while in the older half survives a full round of insertions', () => {
    const cache = new LruCache<number, number>(100);
    for (let i = 0; i < 100; i++) cache.set(i, i);
    // Key 0 is the oldest; using it moves it to the young end.
    expect(cache.get(0)).toBe(0);
    for (let i = 100; i < 199; i++) cache.set(i, i);
    expect(cache.has(0)).toBe(true);
    expect(cache.has(1)).toBe(false);
    expect(cache.size).toBe(100);
  });

  it('peek does not change the rank; set on a present key does not evict', () => {
    const cache = new LruCache<string, number>(2);
    cache.set('a', 1).set('b', 2);
    expect(cache.peek('a')).toBe(1);
    cache.set('b', 20);
    cache.set('c', 3);
    expect(cache.has('a')).toBe(false);
    expect([...cache.entries()]).toEqual([
      ['b', 20],
      ['c', 3],
    ]);
    expect(cache.get('b')).toBe(20);
  });

  it('when full, drops the oldest 1/64th at once and never exceeds its capacity', () => {
    const cache = new LruCache<number, number>(128);
    for (let i = 0; i < 128; i++) cache.set(i, i);
    cache.set(128, 128);
    expect(cache.has(0)).toBe(false);
    expect(cache.has(1)).toBe(false);
    expect(cache.has(2)).toBe(true);
    expect(cache.size).toBe(127);
    for (let i = 129; i < 1000; i++) cache.set(i, i);
    expect(cache.size).toBeLessThanOrEqual(128);
    expect(cache.get(999)).toBe(999);
  });

  it('refuses a capacity below one', () => {
    expect(() => new LruCache(0)).toThrow(RangeError);
  });
});
