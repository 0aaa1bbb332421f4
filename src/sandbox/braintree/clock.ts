import type { Clock } from '../../core/clock.js';

/** Real time plus an offset: the CLI sandbox's clock, so `advance` works without freezing time. */
export class ShiftedClock implements Clock {
  #offsetMs = 0;

  now(): Date {
    return new Date(Date.now() + this.#offsetMs);
  }

  advance(ms: number): this {
    this.#offsetMs += ms;
    return this;
  }
}

/** Moves any clock that can be moved (TestClock, ShiftedClock); returns false for a clock that cannot. */
export function moveClock(clock: Clock, ms: number): boolean {
  const movable = clock as Clock & { advance?: (ms: number) => unknown };
  if (typeof movable.advance !== 'function') return false;
  movable.advance(ms);
  return true;
}
