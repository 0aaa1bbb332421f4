import { describe, expect, it } from 'vitest';
import { TestClock } from '../../core/clock.js';
import { EventDispatcher } from '../../core/events.js';
import { AccessTokenCreated, RefreshTokenCreated } from '../events.js';
import type { AccessTokenSigner, AccessTokenSubject } from '../jwt/access-token-signer.js';
import type { ClientRecord } from '../records.js';
import type { OAuthStore } from '../stores/contracts.js';
import { TokenIssuer } from './token-issuer.js';

/** Records the order of signatures, transactions, inserts and events. */
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
      insertWithAccessToken: async (r: { accessTokenId: string }, a: { id: string }) =>
        void log.push(`insert refresh ${r.accessTokenId} with access ${a.id}`),
    },
    async transaction<T>(work: (s: OAuthStore) => Promise<T>): Promise<T> {
      log.push('begin');
      const result = await work(store);
      log.push('commit');
      return result;
    },
  } as unknown as OAuthStore;
  const events = new EventDispatcher();
  events.listen(AccessTokenCreated, (e) => void log.push(`announce access ${e.tokenId}`));
  events.listen(RefreshTokenCreated, (e) => void log.push(`announce refresh ${e.accessTokenId}`));
  const issuer = new TokenIssuer(signer, new TestClock(Date.UTC(2026, 10, 21)), events, store);
  return { log, issuer };
}

const client = { id: 'client-1' } as ClientRecord;
const options = { client, userId: 7, scopes: ['read'], ttlSeconds: 60, refresh: { ttlSeconds: 600 } };

describe('TokenIssuer.issue', () => {
  it('signs before the transaction, runs the grant writes and the rows in it, announces after commit, answers §5.1', async () => {
    const { log, issuer } = harness();
    const issued = await issuer.issue(options, async ({ accessTokenId, afterCommit }) => {
      log.push(`grant writes ${accessTokenId}`);
      afterCommit(async () => void log.push('after commit'));
      return true;
    });
    const id = issued!.record.id;
    expect(log).toEqual([
      `sign ${id} with key-1`,
      'begin',
      `grant writes ${id}`,
      `insert refresh ${id} with access ${id}`,
      'commit',
      'after commit',
      `announce access ${id}`,
      `announce refresh ${id}`,
    ]);
    expect(issued!.record.expiresAt).toBe('2026-11-21T00:01:00.000Z');
    // The row records the key that signed the token (`tollgate keys:prune` reads it).
    expect(issued!.record.kid).toBe('key-1');
    expect(issued!.refreshRecord?.familyId).toBe(issued!.refreshRecord?.id);
    expect(issued!.response).toEqual({
      token_type: 'Bearer',
      expires_in: 60,
      access_token: `jwt.${id}`,
      refresh_token: issued!.refreshToken,
      scope: 'read',
    });
  });

  it('grant writes that return false abort: nothing saved, nothing announced, undefined', async () => {
    const { log, issuer } = harness();
    expect(await issuer.issue(options, async () => false)).toBeUndefined();
    expect(log.filter((line) => /insert|announce/.test(line))).toEqual([]);
  });

  it('one access token without a refresh token: no transaction, the insert beside the signature; a family carries over', async () => {
    const { log, issuer } = harness();
    const issued = await issuer.issue({ ...options, refresh: undefined });
    const id = issued.record.id;
    expect(log.slice(0, 2).sort()).toEqual([`insert access ${id}`, `sign ${id} with key-1`]);
    expect(log).not.toContain('begin');
    const chained = await issuer.issue({ ...options, refresh: { ttlSeconds: 600, familyId: 'family-1' } });
    expect(chained.refreshRecord?.familyId).toBe('family-1');
  });

  it('a pair without grant writes (the password grant): no transaction, one atomic write beside the signature', async () => {
    const { log, issuer } = harness();
    const issued = await issuer.issue(options);
    const id = issued.record.id;
    expect(log.slice(0, 2).sort()).toEqual([
      `insert refresh ${id} with access ${id}`,
      `sign ${id} with key-1`,
    ]);
    expect(log).not.toContain('begin');
    expect(log.slice(2)).toEqual([`announce access ${id}`, `announce refresh ${id}`]);
  });
});
