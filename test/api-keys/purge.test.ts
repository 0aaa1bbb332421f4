import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiKeys } from '../../src/oauth/index.js';
import { OAuthStoreKey } from '../../src/oauth/stores/contracts.js';
import { type ProtectionApp, protectionApp } from '../protection/support.js';
import { ENGINES } from '../support/engines.js';

const DAY = 24 * 3_600_000;

/** `tollgate purge` and API keys: revoked and long-expired keys go, live ones and keys without an expiry stay. */
describe.each(ENGINES)('purging API keys (%s)', (engine) => {
  let t: ProtectionApp;
  beforeAll(async () => {
    t = await protectionApp({ engine });
  });
  afterAll(async () => t.stop());

  it('deletes revoked keys (--revoked) and keys expired before the cut-off (--expired); the rest still work', async () => {
    const keys = t.app.container.make(ApiKeys);
    const revoked = await keys.create(t.ada.id, { name: 'revoked' });
    await keys.revoke(revoked.key);
    const expired = await keys.create(t.ada.id, { name: 'expired', expiresInDays: 1 });
    const lasting = await keys.create(t.ada.id, { name: 'lasting', expiresInDays: 365 });
    const forever = await keys.create(t.ada.id, { name: 'forever' });
    t.clock.advance(10 * DAY);
    const before = new Date(t.clock.now().getTime() - 7 * DAY).toISOString();
    const store = t.app.container.make(OAuthStoreKey);
    expect((await store.purge({ revoked: true, expired: false, before })).apiKeys).toBe(1);
    expect((await store.purge({ revoked: false, expired: true, before })).apiKeys).toBe(1);
    const left = (await keys.forUser(t.ada.id)).map((k) => k.name).sort();
    expect(left).toEqual(['forever', 'lasting']);
    for (const { plainKey } of [lasting, forever])
      expect((await t.call('/api/user', plainKey)).status).toBe(200);
    for (const { plainKey } of [revoked, expired])
      expect((await t.call('/api/user', plainKey)).status).toBe(401);
  });
});
