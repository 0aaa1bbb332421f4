import { describe, expect, it } from 'vitest';
import { TestClock } from '../core/clock.js';
import { RateLimiter } from './rate-limiter.js';

describe('RateLimiter', () => {
  it('blocks after the limit until the window passes', () => {
    const clock = new TestClock(0);
    const limiter = new RateLimiter(clock, 2, 60);
    limiter.hit('k');
    expect(limiter.tooManyAttempts('k')).toBe(false);
    limiter.hit('k');
    expect(limiter.tooManyAttempts('k')).toBe(true);
    expect(limiter.tooManyAttempts('other')).toBe(false);
    clock.advance(45_000);
    expect(limiter.availableIn('k')).toBe(15);
    clock.advance(15_000);
    expect(limiter.tooManyAttempts('k')).toBe(false);
  });

  it('clear resets a key', () => {
    const limiter = new RateLimiter(new TestClock(0), 1, 60);
    limiter.hit('k');
    limiter.clear('k');
    expect(limiter.tooManyAttempts('k')).toBe(false);
  });
});
