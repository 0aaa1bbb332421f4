import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { Users } from '../../src/auth/users.js';
import { mailProvider } from '../../src/mail/provider.js';
import { PersonalAccessTokens } from '../../src/oauth/index.js';
import { Organizations } from '../../src/organizations/organizations.js';
import { organizationsProvider } from '../../src/organizations/provider.js';
import { type Instances, requireRedis, twoInstances } from '../protection/instances.js';

const redisUrl = process.env.REDIS_URL;

/**
 * Two instances of the service on one PostgreSQL database and one Redis, as behind a load
 * balancer: what one instance ends for a member, the other refuses at once.
 */
describe.runIf(redisUrl)('organization membership across two instances (postgres, Redis)', () => {
  let t: Instances | undefined;
  afterEach(async () => {
    await t?.close();
    t = undefined;
  });

  it("a member removed on instance A: their token for the organization is refused by instance B, which had it cached as verified; the organization's other tokens still work there", async () => {
    await requireRedis(redisUrl!);
    const channel = `tollgate-test:${randomUUID()}`;
    t = await twoInstances(
      'postgres',
      { redis: { url: redisUrl!, keyPrefix: `test-${randomUUID()}:` } },
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
    for (const { accessToken } of [bobs, adas]) {
      // Twice on B: the second answer comes from B's cache of verified tokens.
      expect((await t.call(t.b, '/api/user', accessToken)).status).toBe(200);
      expect((await t.call(t.b, '/api/user', accessToken)).status).toBe(200);
    }

    await organizations.remove(t.ada.id, acme, bob.id);
    expect((await t.call(t.a, '/api/user', bobs.accessToken)).status).toBe(401);
    const start = performance.now();
    while ((await t.call(t.b, '/api/user', bobs.accessToken)).status !== 401) {
      expect(performance.now() - start, 'instance B still accepts the removed member’s token').toBeLessThan(
        1000,
      );
      await new Promise((r) => setTimeout(r, 10));
    }
    expect((await t.call(t.b, '/api/user', adas.accessToken)).status).toBe(200);
  });
});
