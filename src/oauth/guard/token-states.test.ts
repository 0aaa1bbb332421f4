import { describe, expect, it } from 'vitest';
import type { AccessTokenWithClient } from '../records.js';
import { bindsTo, DEFAULT_RECHECK_MS, RevocationCache } from './token-states.js';

/** A store whose rows the test sets; counts its lookups. */
function rows(initial: Record<string, Partial<AccessTokenWithClient>> = {}) {
  const table = new Map(Object.entries(initial));
  let lookups = 0;
  return {
    table,
    get lookups() {
      return lookups;
    },
    async findWithClient(id: string) {
      lookups++;
      const row = table.get(id);
      if (!row) return undefined;
      return {
        revoked: false,
        clientId: 'c1',
        userId: 1,
        ...row,
        client: { revoked: false },
      } as AccessTokenWithClient;
    },
  };
}

describe('RevocationCache', () => {
  it('trusts a live state until recheckAfterMs, a dead one forever', () => {
    const cache = new RevocationCache(rows(), { maxTokenStates: 10, recheckAfterMs: 100 });
    cache.created('t1', 'c1', 1, 0);
    expect(cache.trusted('t1', 50)?.live).toBe(true);
    expect(cache.trusted('t1', 100)).toBeUndefined();
    cache.revoke('t1', 100);
    expect(cache.trusted('t1', 1e9)?.live).toBe(false);
  });

  it('re-reads a live row after the default interval, so a revocation made elsewhere is seen', async () => {
    const store = rows({ t1: {} });
    const cache = new RevocationCache(store);
    const token = { id: 't1', clientId: 'c1', userId: 1 };
    expect((await cache.state(token, 0)).live).toBe(true);
    expect(cache.state(token, DEFAULT_RECHECK_MS - 1)).toMatchObject({ live: true });
    expect(store.lookups).toBe(1);
    store.table.set('t1', { revoked: true });
    expect((await cache.state(token, DEFAULT_RECHECK_MS)).live).toBe(false);
    expect(store.lookups).toBe(2);
  });

  it('a revocation that lands during a lookup wins over the live row read before it', () => {
    const cache = new RevocationCache(rows(), { recheckAfterMs: Number.POSITIVE_INFINITY });
    const seen = cache.peek('t1'); // the lookup starts: nothing cached
    cache.revoke('t1', 1); // the revocation event arrives meanwhile
    const settled = cache.settle('t1', seen, { live: true, clientId: 'c1', userId: 1, checkedAt: 0 });
    expect(settled.live).toBe(false);
    expect(cache.trusted('t1', 2)?.live).toBe(false);
  });

  it('a revoked client kills its cached tokens and any its lookups return later', () => {
    const cache = new RevocationCache(rows(), { recheckAfterMs: Number.POSITIVE_INFINITY });
    cache.created('t1', 'c1', 1, 0);
    cache.created('t2', 'c2', 1, 0);
    cache.revokeClient('c1', 1);
    expect(cache.trusted('t1', 2)?.live).toBe(false);
    expect(cache.trusted('t2', 2)?.live).toBe(true);
    const late = cache.settle('t3', undefined, { live: true, clientId: 'c1', userId: 1, checkedAt: 2 });
    expect(late.live).toBe(false);
    cache.created('t4', 'c1', 1, 3);
    expect(cache.trusted('t4', 3)).toBeUndefined();
  });

  it('clear() forgets every state, so the next request reads the store', () => {
    const cache = new RevocationCache(rows(), { recheckAfterMs: Number.POSITIVE_INFINITY });
    cache.created('t1', 'c1', 1, 0);
    cache.clear();
    expect(cache.trusted('t1', 0)).toBeUndefined();
  });

  it("a state binds only tokens whose sub and client_id are its row's", () => {
    const state = { live: true, clientId: 'c1', userId: 7, checkedAt: 0 };
    expect(bindsTo(state, { clientId: 'c1', userId: 7 })).toBe(true);
    expect(bindsTo(state, { clientId: 'c1', userId: 8 })).toBe(false);
    expect(bindsTo(state, { clientId: 'c2', userId: 7 })).toBe(false);
    expect(bindsTo({ ...state, userId: null }, { clientId: 'c1', userId: null })).toBe(true);
  });
});
