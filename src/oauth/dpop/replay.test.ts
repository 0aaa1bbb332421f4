import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../../core/logger.js';
import { ProofReplay } from './replay.js';

const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

describe('DPoP proof replay', () => {
  it('accepts a jti once per instance, and again after its window', async () => {
    const replay = new ProofReplay(120);
    expect(await replay.firstUse('k', 'a', 0)).toBe(true);
    expect(await replay.firstUse('k', 'a', 1000)).toBe(false);
    expect(await replay.firstUse('other', 'a', 1000)).toBe(true);
    expect(await replay.firstUse('k', 'a', 121_000)).toBe(true);
  });

  it('refuses a jti at a second instance when both share Redis, even sent to both at once', async () => {
    const shared = {
      url: redisUrl,
      prefix: `test-${randomUUID()}:`,
      logger: createLogger('silent'),
    };
    const a = new ProofReplay(120, shared);
    const b = new ProofReplay(120, shared);
    try {
      expect(await a.firstUse('k', 'warm', 0)).toBe(true);
      expect(await b.firstUse('k', 'warm2', 0)).toBe(true);
      expect(await a.firstUse('k', 'j1', 0)).toBe(true);
      expect(await b.firstUse('k', 'j1', 0)).toBe(false);
      const both = await Promise.all([a.firstUse('k', 'j2', 0), b.firstUse('k', 'j2', 0)]);
      expect(both.filter(Boolean)).toHaveLength(1);
    } finally {
      a.close();
      b.close();
    }
  });
});
