import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { afterEach, describe, expect, it } from 'vitest';
import { startRedisServer } from '../../test/support/redis-server.js';
import { REDIS_COMMAND_TIMEOUT_MS, RequestPathRedis } from './request-path-redis.js';

const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

/** Keeps this process busy without yielding, as when it is not scheduled under CPU contention. */
function stall(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until) {
    // busy: no timer, socket or immediate runs meanwhile
  }
}

/** A ready connection, and the names of the connection events it emits from now on. */
async function connect(url: string): Promise<{ redis: RequestPathRedis; events: string[] }> {
  const redis = new RequestPathRedis(url);
  const events: string[] = [];
  redis.on('error', (err: Error) => events.push(`error: ${err.message}`));
  await once(redis, 'ready');
  for (const name of ['close', 'reconnecting', 'end']) redis.on(name, () => events.push(name));
  return { redis, events };
}

describe('RequestPathRedis', () => {
  const opened: RequestPathRedis[] = [];
  afterEach(() => {
    for (const redis of opened.splice(0)) redis.disconnect();
  });

  it('a reply that arrived while this process stalled past the timeout settles its command: no timeout, no drop', async () => {
    const { redis, events } = await connect(redisUrl);
    opened.push(redis);
    const key = `test-${randomUUID()}`;

    const counted = redis.incr(key);
    stall(REDIS_COMMAND_TIMEOUT_MS + 100); // Redis answers at once; only this process is late to read it
    await expect(counted).resolves.toBe(1);

    // A round trip later the connection is still the same one, ready, and never reported an error.
    expect(await redis.incr(key)).toBe(2);
    expect(redis.status).toBe('ready');
    expect(events).toEqual([]);
    await redis.del(key);
  });

  it('a Redis that does not answer still times the command out and drops the connection', async () => {
    const own = await startRedisServer();
    try {
      const { redis, events } = await connect(own.url);
      opened.push(redis);
      own.pause();
      await expect(redis.incr('never-answered')).rejects.toThrow('Command timed out');
      if (redis.status === 'ready') await once(redis, 'close');
      expect(redis.status).not.toBe('ready');
      expect(events.slice(0, 2)).toEqual(['error: Command timed out', 'close']);
    } finally {
      own.resume();
      await own.stop();
    }
  });
});
