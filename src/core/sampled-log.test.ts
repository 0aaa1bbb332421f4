import { describe, expect, it, vi } from 'vitest';
import type { Logger } from './logger.js';
import { SampledWarning } from './sampled-log.js';

describe('SampledWarning', () => {
  it('logs the first, then one line a minute with how many it left out', () => {
    let now = 1_000_000;
    const warn = vi.fn();
    const logger = { warn } as unknown as Logger;
    const sampled = new SampledWarning('refused', 60_000, () => now);
    for (let i = 0; i < 500; i++) sampled.log(logger, { reason: 'bad signature' });
    expect(warn.mock.calls).toEqual([[{ reason: 'bad signature' }, 'refused']]);
    now += 60_000;
    sampled.log(logger, { reason: 'bad signature' });
    expect(warn.mock.calls[1]).toEqual([{ reason: 'bad signature', suppressed: 499 }, 'refused']);
    now += 60_000;
    sampled.log(logger, { reason: 'bad signature' });
    expect(warn.mock.calls[2]).toEqual([{ reason: 'bad signature' }, 'refused']);
  });
});
