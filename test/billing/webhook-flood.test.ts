import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/core/logger.js';
import { type ReferenceServer, startReferenceServer } from '../browser/server.js';
import { ANY_ENGINE } from '../support/engines.js';

/** Anyone can post to the webhook URL: a flood of unsigned posts must not become a flood of logs. */
describe('unsigned webhooks in a flood', () => {
  let server: ReferenceServer;
  const lines: string[] = [];
  beforeAll(async () => {
    const logger = createLogger('warn', { write: (line: string) => void lines.push(line) });
    server = await startReferenceServer({}, { logger, engine: ANY_ENGINE });
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('60 unsigned posts: each 400, at most one warning line (then one a minute, with the count)', async () => {
    const statuses = new Set<number>();
    for (let i = 0; i < 60; i++) {
      const res = await fetch(`${server.url}/stripe/webhook`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ id: `evt_${i}`, type: 'customer.subscription.deleted' }),
      });
      await res.arrayBuffer();
      statuses.add(res.status);
    }
    expect([...statuses]).toEqual([400]);
    expect(lines.filter((line) => line.includes('billing webhook refused')).length).toBeLessThanOrEqual(1);
  });
});
