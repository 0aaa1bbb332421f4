import { describe, expect, it } from 'vitest';
import { createLogger } from '../../core/logger.js';
import { RevocationBroadcast } from './revocation-broadcast.js';

describe('RevocationBroadcast without a reachable Redis', () => {
  it('start() gives up after its timeout, publish() does not throw, close() returns promptly', async () => {
    // Port 1 on loopback refuses connections: a Redis that is down.
    const broadcast = new RevocationBroadcast(
      'redis://127.0.0.1:1',
      'test',
      { revoked: () => {}, flush: () => {} },
      createLogger('silent'),
    );
    const started = performance.now();
    await expect(broadcast.start(300)).rejects.toThrow(/did not answer within 300 ms/);
    expect(performance.now() - started).toBeLessThan(2_000);
    broadcast.publish({ type: 'token', id: 'x' });
    const closing = performance.now();
    await broadcast.close();
    expect(performance.now() - closing).toBeLessThan(1_500);
  });
});
