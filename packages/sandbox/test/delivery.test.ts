import { describe, expect, it } from 'vitest';
import { DeliveryScheduler } from '../src/shared/delivery.js';

/** Runs a batch of ten deliveries and returns the order of their first attempts. */
async function order(scheduler: DeliveryScheduler): Promise<number[]> {
  const calls: number[] = [];
  await scheduler.dispatch(
    Array.from({ length: 10 }, (_, i) => async () => {
      calls.push(i);
      return true;
    }),
  );
  await scheduler.settled();
  return calls;
}

describe('webhook delivery scheduler', () => {
  it('ordered: each once, in order, done when dispatch returns', async () => {
    const scheduler = new DeliveryScheduler('ordered');
    const calls: number[] = [];
    await scheduler.dispatch([1, 2, 3].map((i) => async () => Boolean(calls.push(i))));
    expect(calls).toEqual([1, 2, 3]);
    expect(scheduler.pending).toBe(0);
  });

  it('ordered: no retry of a failed delivery', async () => {
    const scheduler = new DeliveryScheduler('ordered');
    let attempts = 0;
    await scheduler.dispatch([async () => Boolean(++attempts && false)]);
    await scheduler.settled();
    expect(attempts).toBe(1);
  });

  it('realistic: nothing before dispatch returns; shuffled and duplicated, reproducibly by seed', async () => {
    const options = { seed: 42, duplicates: 0.3, maxDelayMs: 0 };
    const calls: number[] = [];
    const scheduler = new DeliveryScheduler(options);
    await scheduler.dispatch([0, 1, 2].map((i) => async () => Boolean(calls.push(i))));
    expect(calls).toEqual([]);
    expect(scheduler.pending).toBeGreaterThan(0);
    await scheduler.settled();

    const first = await order(new DeliveryScheduler(options));
    expect(await order(new DeliveryScheduler(options))).toEqual(first);
    expect(new Set(first)).toEqual(new Set([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]));
    expect(first.length).toBeGreaterThan(10);
    expect(first).not.toEqual([...first].sort((a, b) => a - b));
    const other = await order(new DeliveryScheduler({ ...options, seed: 43 }));
    expect(other).not.toEqual(first);
  });

  it('realistic: a failed attempt is retried with backoff until accepted, or given up after the last wait', async () => {
    const scheduler = new DeliveryScheduler({
      seed: 1,
      duplicates: 0,
      maxDelayMs: 0,
      retryDelaysMs: [1, 2, 4],
    });
    let flaky = 0;
    let down = 0;
    await scheduler.dispatch([
      async () => ++flaky >= 3,
      async () => {
        down++;
        throw new Error('connection refused');
      },
    ]);
    await scheduler.settled();
    expect(flaky).toBe(3);
    expect(down).toBe(4);
    expect(scheduler.pending).toBe(0);
  });

  it('takes its seed from SANDBOX_WEBHOOK_SEED when none is given', () => {
    const saved = process.env.SANDBOX_WEBHOOK_SEED;
    process.env.SANDBOX_WEBHOOK_SEED = '1234';
    try {
      expect(new DeliveryScheduler().seed).toBe(1234);
      expect(new DeliveryScheduler().mode).toBe('realistic');
    } finally {
      if (saved === undefined) delete process.env.SANDBOX_WEBHOOK_SEED;
      else process.env.SANDBOX_WEBHOOK_SEED = saved;
    }
  });
});
