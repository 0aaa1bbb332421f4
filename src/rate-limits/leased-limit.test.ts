import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/support/app.js';
import { ENGINES } from '../../test/support/engines.js';
import { RateLimits } from './rate-limits.js';

const redisUrl = process.env.REDIS_URL;
const stores = [{ name: 'database', redis: '' }, ...(redisUrl ? [{ name: 'Redis', redis: redisUrl }] : [])];

for (const store of stores) {
  describe.each(ENGINES)(`leased limits in the ${store.name} (%s)`, (engine) => {
    const apps: TestApp[] = [];
    afterEach(async () => {
      for (const t of apps.splice(0)) await t.close();
    });

    /** A limit as two instances see it: each its own RateLimits (own connection), one store. */
    const twoInstances = async (points: number) => {
      const redis = { url: store.redis, keyPrefix: `test-${randomUUID()}:` };
      const t = await createTestApp({ engine, config: { redis } });
      apps.push(t);
      const other = new RateLimits({
        db: t.app.db,
        clock: t.clock,
        logger: t.app.logger,
        redisUrl: store.redis,
        redisPrefix: redis.keyPrefix,
      });
      t.app.onClose(() => other.close());
      const limits = [t.app.container.make(RateLimits), other];
      const claims = { count: 0 };
      const leased = limits.map((l) => {
        const limit = l.define('probe.leased', { points, durationSeconds: 60 });
        const claim = limit.claim.bind(limit);
        limit.claim = (subject, n) => {
          claims.count++;
          return claim(subject, n);
        };
        return l.leased(limit);
      });
      // Defined first (the Redis connection opens with the first limit), as at boot.
      await Promise.all(limits.map((l) => l.start()));
      return { t, leased, claims, limits };
    };

    it('of 300 parallel attempts on two instances against 200 points, never more than 200 pass, at most 2 × (lease − 1) fewer', async () => {
      const { t, leased, claims } = await twoInstances(200);
      const now = t.clock.now().getTime();
      const results = await Promise.all(
        Array.from({ length: 300 }, (_, i) => leased[i % 2]!.consume('ada', now)),
      );
      const allowed = results.filter((r) => r.allowed).length;
      // A lease here is 200 / 20 = 10 attempts.
      expect(allowed).toBeLessThanOrEqual(200);
      expect(allowed).toBeGreaterThanOrEqual(200 - 2 * 9);
      expect(claims.count).toBeLessThan(100);
      const refused = results.find((r) => !r.allowed)!;
      expect([refused.remaining, refused.resetSeconds > 0]).toEqual([0, true]);
    });

    it('one instance alone uses the whole window, one store round trip per lease', async () => {
      const { t, leased, claims } = await twoInstances(200);
      const now = t.clock.now().getTime();
      const results = [];
      for (let i = 0; i < 210; i++) results.push(await leased[0]!.consume('ada', now));
      expect(results.filter((r) => r.allowed)).toHaveLength(200);
      expect(claims.count).toBeLessThanOrEqual(40);
      expect((await leased[1]!.consume('ada', now)).allowed).toBe(false);
      expect((await leased[1]!.consume('grace', now)).allowed).toBe(true);
    });

    it('an instance that stops hands back what its leases did not use', async () => {
      const { t, leased, limits } = await twoInstances(200);
      const now = t.clock.now().getTime();
      for (let i = 0; i < 3; i++) expect((await leased[1]!.consume('ada', now)).allowed).toBe(true);
      // A lease here is 10 attempts: 7 of them unused.
      await limits[1]!.close();
      const results = [];
      for (let i = 0; i < 200; i++) results.push(await leased[0]!.consume('ada', now));
      expect(results.filter((r) => r.allowed)).toHaveLength(197);
    });

    it('a held lease answers as the subject does, and stops answering once used up or dropped', async () => {
      const { t, leased, limits } = await twoInstances(200);
      const now = t.clock.now().getTime();
      const limit = leased[0]!;
      expect(limit.held('ada')).toBeUndefined();
      expect((await limit.consume('ada', now)).allowed).toBe(true);
      const lease = limit.held('ada')!;
      // The lease is 10 attempts: the first took one; the held lease answers for the rest, counted
      // as `consume` counts them, with the claims it makes ahead.
      const held = [];
      for (let answer = limit.consumeHeld(lease, now); answer; answer = limit.consumeHeld(lease, now)) {
        held.push(answer);
        await Promise.resolve();
      }
      expect(held.length).toBeGreaterThanOrEqual(9);
      expect(held.every((r) => r.allowed)).toBe(true);
      const results = [...held];
      while (results.length < 220) results.push(await limit.consume('ada', now));
      expect(results.filter((r) => r.allowed)).toHaveLength(199);
      expect(limit.consumeHeld(limit.held('ada')!, now)).toBeUndefined();
      // Released at shutdown: a lease kept from before answers nothing.
      expect((await leased[1]!.consume('grace', now)).allowed).toBe(true);
      const grace = leased[1]!.held('grace')!;
      await limits[1]!.close();
      expect(leased[1]!.consumeHeld(grace, now)).toBeUndefined();
    });

    /** `attempts` of one subject at `perSecond` on the application clock: allowed, and the claims made. */
    const busy = async (points: number, attempts: number, perSecond: number) => {
      const { t, leased, claims } = await twoInstances(points);
      const start = t.clock.now().getTime();
      let allowed = 0;
      for (let i = 0; i < attempts; i++) {
        const now = start + Math.floor((i * 1000) / perSecond);
        if ((await leased[0]!.consume('ada', now)).allowed) allowed++;
      }
      return { allowed, claims: claims.count };
    };

    it('a busy subject claims about a second of its traffic at once, not a thousand attempts', async () => {
      // 20,000 attempts at 10,000 a second: a lease of 1,000 would make 20 claims or more.
      const { allowed, claims } = await busy(100_000_000, 20_000, 10_000);
      expect(allowed).toBe(20_000);
      expect(claims).toBeGreaterThanOrEqual(2);
      expect(claims).toBeLessThanOrEqual(6);
    });

    it("a busy subject's lease stays within a twentieth of the limit", async () => {
      // 60,000 a minute: leases of at most 3,000, so 20,000 attempts take 7 claims or more.
      const { allowed, claims } = await busy(60_000, 20_000, 10_000);
      expect(allowed).toBe(20_000);
      expect(claims).toBeGreaterThanOrEqual(7);
      expect(claims).toBeLessThanOrEqual(12);
    });

    it('two busy instances together never allow more than the limit, and refuse at most a lease each early', async () => {
      // 60,000 a minute, 70,000 attempts alternating between the instances at 5,000 a second each:
      // each lease grows to its cap, 3,000.
      const { t, leased } = await twoInstances(60_000);
      const start = t.clock.now().getTime();
      let allowed = 0;
      for (let i = 0; i < 70_000; i++) {
        const now = start + Math.floor(i / 10);
        if ((await leased[i % 2]!.consume('ada', now)).allowed) allowed++;
      }
      expect(allowed).toBeLessThanOrEqual(60_000);
      expect(allowed).toBeGreaterThanOrEqual(60_000 - 2 * 2_999);
    });

    // The database counts on the application clock; Redis on its own.
    if (!store.redis)
      it('a new window (application clock) starts a new lease', async () => {
        const { t, leased } = await twoInstances(3);
        const at = () => t.clock.now().getTime();
        const first = [];
        for (let i = 0; i < 4; i++) first.push((await leased[i % 2]!.consume('ada', at())).allowed);
        expect(first).toEqual([true, true, true, false]);
        const held = leased[1]!.held('ada')!;
        t.clock.advance(61_000);
        expect(leased[1]!.consumeHeld(held, at())).toBeUndefined();
        expect((await leased[1]!.consume('ada', at())).allowed).toBe(true);
      });

    if (!store.redis)
      it('a lease of a window that has ended gives nothing back to the next window', async () => {
        const { t, leased, limits } = await twoInstances(200);
        expect((await leased[1]!.consume('ada', t.clock.now().getTime())).allowed).toBe(true);
        t.clock.advance(61_000);
        await limits[1]!.close();
        const now = t.clock.now().getTime();
        const results = [];
        for (let i = 0; i < 210; i++) results.push(await leased[0]!.consume('ada', now));
        expect(results.filter((r) => r.allowed)).toHaveLength(200);
      });
  });
}
