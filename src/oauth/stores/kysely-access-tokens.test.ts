import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type OAuthTestApp, oauthApp } from '../../../test/oauth/support.js';
import { ENGINES } from '../../../test/support/engines.js';
import type { AccessTokenRecord } from '../records.js';
import { type OAuthStore, OAuthStoreKey } from './contracts.js';

describe.each(ENGINES)('KyselyAccessTokenStore inserts (%s)', (engine) => {
  let t: OAuthTestApp;
  let store: OAuthStore;
  beforeAll(async () => {
    t = await oauthApp({ engine });
    store = t.app.container.make(OAuthStoreKey);
  });
  afterAll(async () => t.stop());

  const token = (id: string, clientId: string): AccessTokenRecord => ({
    id,
    userId: null,
    clientId,
    name: null,
    scopes: ['a', 'b'],
    revoked: false,
    createdAt: '2026-11-21T00:00:00.000Z',
    updatedAt: '2026-11-21T00:00:00.000Z',
    expiresAt: '2026-11-21T01:00:00.000Z',
    kid: 'key-1',
    audience: null,
  });

  it('concurrent inserts share a commit; a row the database refuses fails alone', async () => {
    const { client } = await t.createClient({});
    const ids = Array.from({ length: 40 }, (_, i) => `batch-${i}`);
    const results = await Promise.allSettled(
      ids.map((id, i) => store.accessTokens.insert(token(id, i === 7 ? 'no-such-client' : client.id))),
    );
    expect(results.filter((r) => r.status === 'rejected').length).toBe(1);
    expect(results[7]!.status).toBe('rejected');
    const rows = await t.app.db
      .selectFrom('oauth_access_tokens')
      .select('id')
      .where('id', 'like', 'batch-%')
      .execute();
    expect(rows.map((r) => r.id).sort()).toEqual(ids.filter((_, i) => i !== 7).sort());
    expect(await store.accessTokens.find('batch-3')).toEqual(token('batch-3', client.id));
  });

  it('inside a transaction, inserts are the transaction’s (rolled back with it)', async () => {
    const { client } = await t.createClient({});
    await expect(
      store.transaction(async (trx) => {
        await trx.accessTokens.insert(token('tx-1', client.id));
        expect(await trx.accessTokens.find('tx-1')).toBeDefined();
        throw new Error('abort');
      }),
    ).rejects.toThrow('abort');
    expect(await store.accessTokens.find('tx-1')).toBeUndefined();
  });
});
