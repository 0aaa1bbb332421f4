import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type OAuthTestApp, oauthApp } from '../../../test/oauth/support.js';
import { ENGINES } from '../../../test/support/engines.js';
import type { AccessTokenRecord, RefreshTokenRecord } from '../records.js';
import { type OAuthStore, OAuthStoreKey } from './contracts.js';

describe.each(ENGINES)('KyselyRefreshTokenStore.insertWithAccessToken (%s)', (engine) => {
  let t: OAuthTestApp;
  let store: OAuthStore;
  let clientId: string;
  beforeAll(async () => {
    t = await oauthApp({ engine });
    store = t.app.container.make(OAuthStoreKey);
    clientId = (await t.createClient({})).client.id;
  });
  afterAll(async () => t.stop());

  const access = (id: string): AccessTokenRecord => ({
    id,
    userId: null,
    clientId,
    name: null,
    scopes: ['a'],
    revoked: false,
    createdAt: '2026-11-29T00:00:00.000Z',
    updatedAt: '2026-11-29T00:00:00.000Z',
    expiresAt: '2026-11-29T01:00:00.000Z',
    kid: 'key-1',
    audience: null,
  });
  const refresh = (id: string, accessTokenId: string): RefreshTokenRecord => ({
    id,
    accessTokenId,
    familyId: id,
    revoked: false,
    createdAt: '2026-11-29T00:00:00.000Z',
    expiresAt: '2026-12-29T00:00:00.000Z',
    authTime: '2026-11-29T00:00:00.000Z',
    sid: 'session-1',
    amr: ['pwd'],
    claims: null,
  });

  it('writes both rows, each read back as it was given', async () => {
    await store.refreshTokens.insertWithAccessToken(refresh('pair-r1', 'pair-a1'), access('pair-a1'));
    expect(await store.accessTokens.find('pair-a1')).toEqual(access('pair-a1'));
    expect(await store.refreshTokens.find('pair-r1')).toEqual(refresh('pair-r1', 'pair-a1'));
  });

  it('both or neither: a refresh row the database refuses leaves no access token behind', async () => {
    await store.refreshTokens.insertWithAccessToken(refresh('pair-r2', 'pair-a2'), access('pair-a2'));
    // The same refresh token id again: its primary key refuses the row.
    await expect(
      store.refreshTokens.insertWithAccessToken(refresh('pair-r2', 'pair-a3'), access('pair-a3')),
    ).rejects.toThrow();
    expect(await store.accessTokens.find('pair-a3')).toBeUndefined();
    expect((await store.refreshTokens.find('pair-r2'))?.accessTokenId).toBe('pair-a2');
  });

  it('inside a transaction, the pair is the transaction’s (rolled back with it)', async () => {
    await expect(
      store.transaction(async (trx) => {
        await trx.refreshTokens.insertWithAccessToken(refresh('pair-r4', 'pair-a4'), access('pair-a4'));
        expect(await trx.refreshTokens.find('pair-r4')).toBeDefined();
        throw new Error('abort');
      }),
    ).rejects.toThrow('abort');
    expect(await store.accessTokens.find('pair-a4')).toBeUndefined();
    expect(await store.refreshTokens.find('pair-r4')).toBeUndefined();
  });
});
