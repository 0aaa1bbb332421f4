import { describe, expect, it } from 'vitest';
import { TestClock } from '../../core/clock.js';
import { EventDispatcher } from '../../core/events.js';
import type { AccessTokenSigner, AccessTokenSubject } from '../jwt/access-token-signer.js';
import type { ClientRecord } from '../records.js';
import type { OAuthStore } from '../stores/contracts.js';
import { TokenIssuer } from './token-issuer.js';

/** Records the order of signatures and inserts; every other store call fails the test. */
function harness() {
  const log: string[] = [];
  const signer = {
    async currentKey() {
      return { kid: 'key-1' };
    },
    async sign(subject: AccessTokenSubject, key: { kid: string }) {
      log.push(`sign ${subject.tokenId} with ${key.kid}`);
      return `jwt.${subject.tokenId}`;
    },
  } as unknown as AccessTokenSigner;
  const store = {
    accessTokens: { insert: async (r: { id: string }) => void log.push(`insert access ${r.id}`) },
    refreshTokens: {
      insert: async (r: { accessTokenId: string }) => void log.push(`insert refresh ${r.accessTokenId}`),
    },
  } as unknown as OAuthStore;
  const issuer = new TokenIssuer(signer, new TestClock(Date.UTC(2026, 10, 21)), new EventDispatcher(), store);
  return { log, store, issuer };
}

const client = { id: 'client-1' } as ClientRecord;
const options = { client, userId: 7, scopes: ['read'], ttlSeconds: 60, refresh: { ttlSeconds: 600 } };

describe('TokenIssuer', () => {
  it('prepare signs with jti = the row id and stores nothing; save inserts the access then the refresh row', async () => {
    const { log, store, issuer } = harness();
    const prepared = await issuer.prepare(options);
    const id = prepared.record.id;
    expect(log).toEqual([`sign ${id} with key-1`]);
    // The row records the key that signed the token (`tollgate keys:prune` reads it).
    expect(prepared.record.kid).toBe('key-1');
    expect(prepared.accessToken).toBe(`jwt.${id}`);
    expect(prepared.refreshRecord?.accessTokenId).toBe(id);
    expect(prepared.refreshRecord?.familyId).toBe(prepared.refreshRecord?.id);
    expect(prepared.record.expiresAt).toBe('2026-11-21T00:01:00.000Z');

    await issuer.save(prepared, store);
    expect(log).toEqual([`sign ${id} with key-1`, `insert access ${id}`, `insert refresh ${id}`]);
  });

  it('issue signs and stores; a refresh family carries over', async () => {
    const { log, issuer } = harness();
    const issued = await issuer.issue({ ...options, refresh: { ttlSeconds: 600, familyId: 'family-1' } });
    const id = issued.record.id;
    expect(log.sort()).toEqual([`insert access ${id}`, `insert refresh ${id}`, `sign ${id} with key-1`]);
    expect(issued.refreshRecord?.familyId).toBe('family-1');
    expect(issued.accessToken).toBe(`jwt.${id}`);
  });
});
