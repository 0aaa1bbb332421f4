import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/support/app.js';
import { ENGINES } from '../../test/support/engines.js';
import { runInRequest } from '../core/request-context.js';
import { clientAddress } from './http.js';
import { blockSeconds, IN_FLIGHT_SECONDS, parsePolicy } from './policy.js';
import { RateLimits } from './rate-limits.js';

const redisUrl = process.env.REDIS_URL;
const stores = [{ name: 'database', redis: '' }, ...(redisUrl ? [{ name: 'Redis', redis: redisUrl }] : [])];

describe('policies', () => {
  it('parses "points/seconds[/max block]" and "0" (off)', () => {
    expect(parsePolicy('5/60', 'X')).toEqual({ points: 5, durationSeconds: 60 });
    expect(parsePolicy('5/60/900', 'X')).toEqual({ points: 5, durationSeconds: 60, maxBlockSeconds: 900 });
    expect(parsePolicy('0', 'X')?.points).toBe(0);
    expect(parsePolicy('', 'X')).toBeUndefined();
    expect(() => parsePolicy('five', 'THROTTLE_X')).toThrow(/THROTTLE_X must look like/);
  });

  it('back-off doubles per strike from the window, up to the cap', () => {
    const policy = { points: 5, durationSeconds: 60, maxBlockSeconds: 900 };
    expect([1, 2, 3, 4, 5, 40].map((n) => blockSeconds(policy, n))).toEqual([60, 120, 240, 480, 900, 900]);
  });
});

describe('clientAddress', () => {
  const from = (ip?: string) => runInRequest({ id: 'r', origin: () => (ip ? { ip } : {}) }, clientAddress);

  it('is the request\'s client address; IPv6 by its /64, none as "local"', () => {
    expect(from('203.0.113.7')).toBe('203.0.113.7');
    expect(from('2001:db8:aa:bb:1:2:3:4')).toBe('2001:db8:aa:bb::/64');
    expect(from('2001:DB8:0:0:ffff::1')).toBe(from('2001:db8::2'));
    expect(from('::1')).toBe('0:0:0:0::/64');
    expect(from(undefined)).toBe('local');
  });
});

for (const store of stores) {
  describe.each(ENGINES)(`rate limits in the ${store.name} (%s)`, (engine) => {
    let t: TestApp | undefined;
    afterEach(async () => {
      await t?.close();
      t = undefined;
    });

    let keyPrefix = '';
    const setup = async () => {
      keyPrefix = `test-${randomUUID()}:`;
      t = await createTestApp({ engine, config: { redis: { url: store.redis, keyPrefix } } });
      return t.app.container.make(RateLimits);
    };

    it('of 30 parallel attempts against 5 points, exactly 5 are allowed', async () => {
      const limits = await setup();
      const limit = limits.define('probe.parallel', { points: 5, durationSeconds: 60 });
      await limits.start();
      const results = await Promise.all(Array.from({ length: 30 }, () => limit.consume('ada@example.com')));
      expect(results.filter((r) => r.allowed)).toHaveLength(5);
      expect(results.filter((r) => !r.allowed).every((r) => r.remaining === 0 && r.resetSeconds > 0)).toBe(
        true,
      );
      expect((await limit.consume('grace@example.com')).allowed).toBe(true);
    });

    it('failures only: of 30 parallel attempts against 5 points, 5 run at once; only failures stay counted', async () => {
      const limits = await setup();
      const limit = limits.define(
        'probe.failures',
        { points: 5, durationSeconds: 60 },
        { failuresOnly: true },
      );
      await limits.start();
      const begun = await Promise.all(Array.from({ length: 30 }, () => limit.begin('client-a')));
      expect(begun.filter((r) => r.allowed)).toHaveLength(5);
      // Three succeed, two fail: the two stay counted, so three more may run, and no fourth.
      for (const failed of [false, false, false, true, true]) await limit.settle('client-a', failed);
      const next = await Promise.all(Array.from({ length: 10 }, () => limit.begin('client-a')));
      expect(next.filter((r) => r.allowed)).toHaveLength(3);
      for (let i = 0; i < 3; i++) await limit.settle('client-a', true);
      expect((await limit.begin('client-a')).allowed).toBe(false);
      expect((await limit.begin('client-b')).allowed).toBe(true);
    });

    it('failures only: attempts settled after their window in flight ended free no place for another guess', async () => {
      const limits = await setup();
      const limit = limits.define(
        'probe.straddle',
        { points: 5, durationSeconds: 60 },
        { failuresOnly: true },
      );
      await limits.start();
      const begun = await Promise.all(Array.from({ length: 5 }, () => limit.begin('client-a')));
      expect(begun.filter((r) => r.allowed)).toHaveLength(5);
      // Their window in flight ends while they run: the database's by the application's clock,
      // Redis's by its own (the key's time to live), so there the key goes.
      if (store.redis) {
        const redis = new Redis(store.redis);
        try {
          const keys = await redis.keys(`${keyPrefix}rl:probe.straddle.in-flight:*`);
          expect(keys).toHaveLength(1);
          await redis.del(...keys);
        } finally {
          redis.disconnect();
        }
      } else {
        t!.clock.advance(IN_FLIGHT_SECONDS * 1000 + 1);
      }
      // The five hold no place any more: a sixth may begin, and opens the next window in flight.
      expect((await limit.begin('client-a')).allowed).toBe(true);
      // The five settle late, as failures: that is the limit, and their late settlements give
      // nobody a place (before, each took the new window one lower, below zero: four got through).
      for (let i = 0; i < 5; i++) await limit.settle('client-a', true);
      const after = await Promise.all(Array.from({ length: 5 }, () => limit.begin('client-a')));
      expect(after.filter((r) => r.allowed)).toHaveLength(0);
    });

    it('giving back never takes a count below zero (reward, and rewardAndClear after a login)', async () => {
      const limits = await setup();
      const limit = limits.define('probe.floor', { points: 2, durationSeconds: 60 });
      await limits.start();
      // One attempt, given back twice: as when a late settlement lands in a newer window.
      await limit.consume('k');
      await limit.reward('k');
      await limit.reward('k');
      await limit.consume('j');
      await limits.rewardAndClear([[limit, 'j']], []);
      await limits.rewardAndClear([[limit, 'j']], []);
      for (const subject of ['k', 'j']) {
        const allowed = [];
        for (let i = 0; i < 3; i++) allowed.push((await limit.consume(subject)).allowed);
        expect(allowed, subject).toEqual([true, true, false]);
      }
    });

    it('reward gives an attempt back; clear forgets the subject', async () => {
      const limits = await setup();
      const limit = limits.define('probe.reward', { points: 2, durationSeconds: 60 });
      await limits.start();
      await limit.consume('k');
      await limit.consume('k');
      await limit.reward('k');
      expect((await limit.consume('k')).allowed).toBe(true);
      expect((await limit.consume('k')).allowed).toBe(false);
      await limit.clear('k');
      expect((await limit.consume('k')).remaining).toBe(1);
    });

    it('rewardAndClear: one subject gets an attempt back, another forgets its attempts and strikes', async () => {
      const limits = await setup();
      const address = limits.define('probe.address', { points: 3, durationSeconds: 60 });
      const account = limits.define('probe.account', {
        points: 2,
        durationSeconds: 60,
        maxBlockSeconds: 600,
      });
      await limits.start();
      for (let i = 0; i < 3; i++) await account.consume('a');
      for (let i = 0; i < 3; i++) await address.consume('ip');
      await limits.rewardAndClear([[address, 'ip']], [[account, 'a']]);
      expect((await address.consume('ip')).allowed).toBe(true);
      expect((await address.consume('ip')).allowed).toBe(false);
      // The strike is forgotten too: the next block is the window again, not twice it.
      await account.consume('a');
      await account.consume('a');
      expect((await account.consume('a')).resetSeconds).toBe(60);
    });

    it('points 0 turns a limit off', async () => {
      const limit = (await setup()).define('probe.off', { points: 0, durationSeconds: 60 });
      for (let i = 0; i < 10; i++) expect((await limit.consume('k')).allowed).toBe(true);
    });
  });
}

describe.each(ENGINES)('a Redis that does not answer (%s)', (engine) => {
  let t: TestApp | undefined;
  afterEach(async () => {
    await t?.close();
    t = undefined;
  });

  it('the database counts instead, and the limit still holds', async () => {
    t = await createTestApp({
      engine,
      config: { redis: { url: 'redis://127.0.0.1:1', keyPrefix: 'down:' } },
    });
    const limits = t.app.container.make(RateLimits);
    const limit = limits.define('probe.insured', { points: 5, durationSeconds: 60 });
    await limits.start(100);
    const results = await Promise.all(Array.from({ length: 30 }, () => limit.consume('k')));
    expect(results.filter((r) => r.allowed)).toHaveLength(5);
    expect(await t.app.db.selectFrom('rate_limits').select('key').execute()).toHaveLength(1);
  });
});

describe.each(ENGINES)('back-off in the database (%s), on the application clock', (engine) => {
  let t: TestApp | undefined;
  afterEach(async () => {
    await t?.close();
    t = undefined;
  });

  it('blocks for the window after the limit, then twice as long after the next', async () => {
    t = await createTestApp({ engine });
    const limit = t.app.container
      .make(RateLimits)
      .define('probe.backoff', { points: 2, durationSeconds: 60, maxBlockSeconds: 600 });
    await limit.consume('k');
    await limit.consume('k');
    const first = await limit.consume('k');
    expect([first.allowed, first.resetSeconds]).toEqual([false, 60]);
    t.clock.advance(59_000);
    expect((await limit.consume('k')).allowed).toBe(false);
    t.clock.advance(2_000);
    expect((await limit.consume('k')).allowed).toBe(true);
    expect((await limit.consume('k')).allowed).toBe(true);
    const second = await limit.consume('k');
    expect([second.allowed, second.resetSeconds]).toEqual([false, 120]);
    t.clock.advance(119_000);
    expect((await limit.consume('k')).allowed).toBe(false);
    t.clock.advance(2_000);
    expect((await limit.consume('k')).allowed).toBe(true);
    // Clearing (a successful login) forgets the strikes too.
    await limit.clear('k');
    await limit.consume('k');
    await limit.consume('k');
    expect((await limit.consume('k')).resetSeconds).toBe(60);
  });

  it('failures only: attempts a crash never settled stop counting after the in-flight window, failures do not', async () => {
    t = await createTestApp({ engine });
    const limits = t.app.container.make(RateLimits);
    const limit = limits.define(
      'probe.in-flight',
      { points: 5, durationSeconds: 60 },
      { failuresOnly: true },
    );
    await limit.begin('k');
    await limit.settle('k', true);
    // Four begun and never settled, as requests in flight when the process was killed.
    for (let i = 0; i < 4; i++) expect((await limit.begin('k')).allowed).toBe(true);
    expect((await limit.begin('k')).allowed).toBe(false);
    t.clock.advance(IN_FLIGHT_SECONDS * 1000 + 1);
    const after = await Promise.all(Array.from({ length: 6 }, () => limit.begin('k')));
    expect(after.filter((r) => r.allowed)).toHaveLength(4);
  });

  it('rewardAndClear writes no row for a subject with nothing to give back or forget', async () => {
    t = await createTestApp({ engine });
    const limits = t.app.container.make(RateLimits);
    const address = limits.define('probe.address', { points: 3, durationSeconds: 60 });
    const account = limits.define('probe.account', { points: 2, durationSeconds: 60, maxBlockSeconds: 600 });
    await address.consume('expired');
    t.clock.advance(61_000);
    await limits.rewardAndClear(
      [
        [address, 'ip'],
        [address, 'expired'],
      ],
      [[account, 'a']],
    );
    const rows = await t.app.db.selectFrom('rate_limits').select(['points', 'expire']).execute();
    expect(rows.map((row) => [row.points, Number(row.expire)])).toEqual([
      [1, t.clock.now().getTime() - 1_000],
    ]);
    expect((await address.consume('ip')).remaining).toBe(2);
    expect((await address.consume('expired')).remaining).toBe(2);
  });

  it('expired counters are swept', async () => {
    t = await createTestApp({ engine });
    const limit = t.app.container.make(RateLimits).define('probe.sweep', { points: 2, durationSeconds: 60 });
    await limit.consume('a');
    await limit.consume('b');
    t.clock.advance(61_000);
    await limit.consume('c');
    const { KyselyRateLimiter } = await import('./kysely-limiter.js');
    await new KyselyRateLimiter({
      db: t.app.db,
      clock: t.clock,
      keyPrefix: 'x',
      points: 1,
      duration: 1,
    }).sweep();
    const rows = await t.app.db.selectFrom('rate_limits').select('key').execute();
    expect(rows).toHaveLength(1);
  });
});
