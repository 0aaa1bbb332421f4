import { describe, expect, it } from 'vitest';
import { RevocationCache } from './token-states.js';

describe('RevocationCache', () => {
  it('trusts a live state until recheckAfterMs, a dead one forever', () => {
    const cache = new RevocationCache(10, 100);
    cache.created('t1', 'c1', 0);
    expect(cache.trusted('t1', 50)?.live).toBe(true);
    expect(cache.trusted('t1', 100)).toBeUndefined();
    cache.revoke('t1', 100);
    expect(cache.trusted('t1', 1e9)?.live).toBe(false);
  });

  it('a revocation that lands during a lookup wins over the live row read before it', () => {
    const cache = new RevocationCache(10, Number.POSITIVE_INFINITY);
    const seen = cache.peek('t1'); // the lookup starts: nothing cached
    cache.revoke('t1', 1); // the revocation event arrives meanwhile
    const settled = cache.settle('t1', seen, { live: true, clientId: 'c1', checkedAt: 0 });
    expect(settled.live).toBe(false);
    expect(cache.trusted('t1', 2)?.live).toBe(false);
  });

  it('a revoked client kills its cached tokens and any its lookups return later', () => {
    const cache = new RevocationCache(10, Number.POSITIVE_INFINITY);
    cache.created('t1', 'c1', 0);
    cache.created('t2', 'c2', 0);
    cache.revokeClient('c1', 1);
    expect(cache.trusted('t1', 2)?.live).toBe(false);
    expect(cache.trusted('t2', 2)?.live).toBe(true);
    const late = cache.settle('t3', undefined, { live: true, clientId: 'c1', checkedAt: 2 });
    expect(late.live).toBe(false);
    cache.created('t4', 'c1', 3);
    expect(cache.trusted('t4', 3)).toBeUndefined();
  });

  it('clear() forgets every state, so the next request reads the store', () => {
    const cache = new RevocationCache(10, Number.POSITIVE_INFINITY);
    cache.created('t1', 'c1', 0);
    cache.clear();
    expect(cache.trusted('t1', 0)).toBeUndefined();
  });
});
