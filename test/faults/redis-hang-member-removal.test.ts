import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Users } from '../../src/auth/users.js';
import { mailProvider } from '../../src/mail/provider.js';
import { PUBLISH_TIMEOUT_MS } from '../../src/oauth/guard/revocation-broadcast.js';
import { PersonalAccessTokens } from '../../src/oauth/index.js';
import { Organizations } from '../../src/organizations/organizations.js';
import { organizationsProvider } from '../../src/organizations/provider.js';
import { type Instances, twoInstances } from '../protection/instances.js';
import { ENGINES } from '../support/engines.js';
import { type OwnRedis, startRedisServer } from '../support/redis-server.js';

/**
 * A member removed while Redis accepts connections but answers nothing (paused with SIGSTOP): the
 * removal answers within the publish timeout, the database has the token revoked and the instance
 * that removed refuses it; once Redis answers again, no instance serves it from its cache.
 */
describe.each(ENGINES)('a member removed while Redis hangs (%s)', (engine) => {
  let redis: OwnRedis;
  let t: Instances | undefined;
  const unhandled: unknown[] = [];
  const record = (reason: unknown) => void unhandled.push(reason);
  beforeAll(async () => {
    redis = await startRedisServer();
    process.on('unhandledRejection', record);
  });
  afterEach(async () => {
    redis.resume();
    await t?.close();
    t = undefined;
  });
  afterAll(async () => {
    process.off('unhandledRejection', record);
    await redis?.stop();
  });

  it('the removal answers, the token is revoked in the database and refused, and no cache serves it once Redis is back', async () => {
    const channel = `tollgate-test:${randomUUID()}`;
    t = await twoInstances(
      engine,
      { redis: { url: redis.url } },
      { a: { redisChannel: channel }, b: { redisChannel: channel } },
      () => [mailProvider(), organizationsProvider()],
    );
    const organizations = t.a.container.make(Organizations);
    const bob = await t.a.container
      .make(Users)
      .create({ name: 'Bob', email: 'bob@example.com', password: 'correct horse battery' });
    const acme = (await organizations.create(t.ada.id, 'Acme')).id;
    await organizations.addMember(acme, bob.id, 'member', t.ada.id);
    const tokens = t.a.container.make(PersonalAccessTokens);
    const bobs = await tokens.create(bob.id, 'bob for acme', [], { organizationId: acme });
    const adas = await tokens.create(t.ada.id, 'ada for acme', [], { organizationId: acme });
    for (const app of [t.a, t.b])
      for (const { accessToken } of [bobs, adas]) {
        // Twice on each: the second answer comes from the instance's cache of verified tokens.
        expect((await t.call(app, '/api/user', accessToken)).status).toBe(200);
        expect((await t.call(app, '/api/user', accessToken)).status).toBe(200);
      }

    redis.pause();
    const started = performance.now();
    await organizations.remove(t.ada.id, acme, bob.id);
    expect(performance.now() - started).toBeLessThan(PUBLISH_TIMEOUT_MS + 1_500);
    const row = await t.a.db
      .selectFrom('oauth_access_tokens')
      .select('revoked')
      .where('id', '=', bobs.token.id)
      .executeTakeFirstOrThrow();
    expect(Boolean(row.revoked)).toBe(true);
    expect((await t.call(t.a, '/api/user', bobs.accessToken)).status).toBe(401);

    redis.resume();
    const resumed = performance.now();
    while ((await t.call(t.b, '/api/user', bobs.accessToken)).status !== 401) {
      expect(performance.now() - resumed, 'instance B still serves the removed member’s token').toBeLessThan(
        3_000,
      );
      await new Promise((r) => setTimeout(r, 20));
    }
    expect((await t.call(t.a, '/api/user', bobs.accessToken)).status).toBe(401);
    expect((await t.call(t.b, '/api/user', adas.accessToken)).status).toBe(200);
    expect(unhandled).toEqual([]);
  }, 30_000);

  it('while Redis still hangs, the other instance refuses the token once its cached live verdict is older than recheckAfterMs', async () => {
    const channel = `tollgate-test:${randomUUID()}`;
    const recheckAfterMs = 500;
    t = await twoInstances(
      engine,
      { redis: { url: redis.url } },
      { a: { redisChannel: channel, recheckAfterMs }, b: { redisChannel: channel, recheckAfterMs } },
      () => [mailProvider(), organizationsProvider()],
    );
    const organizations = t.a.container.make(Organizations);
    const bob = await t.a.container
      .make(Users)
      .create({ name: 'Bob', email: 'bob@example.com', password: 'correct horse battery' });
    const acme = (await organizations.create(t.ada.id, 'Acme')).id;
    await organizations.addMember(acme, bob.id, 'member', t.ada.id);
    const bobs = await t.a.container
      .make(PersonalAccessTokens)
      .create(bob.id, 'bob for acme', [], { organizationId: acme });
    expect((await t.call(t.b, '/api/user', bobs.accessToken)).status).toBe(200);
    expect((await t.call(t.b, '/api/user', bobs.accessToken)).status).toBe(200);

    redis.pause();
    await organizations.remove(t.ada.id, acme, bob.id);
    const removed = performance.now();
    // Redis stays paused: no message can reach B; its database re-read after recheckAfterMs must.
    while ((await t.call(t.b, '/api/user', bobs.accessToken)).status !== 401) {
      expect(performance.now() - removed, 'instance B still serves the removed member’s token').toBeLessThan(
        recheckAfterMs + 2_000,
      );
      await new Promise((r) => setTimeout(r, 20));
    }
    expect(unhandled).toEqual([]);
  }, 30_000);
});
