/** The one source of "now" in Tollgate: inject it, so trials, grace periods and expiry are testable. */
export interface Clock {
  now(): Date;
}

export class SystemClock implements Clock {
  now(): Date {
    return new Date();
  }
}

/** A clock that only moves when told to. Tests and the billing sandboxes use it. */
export class TestClock implements Clock {
  #ms: number;

  constructor(start: Date | number = Date.now()) {
    this.#ms = typeof start === 'number' ? start : start.getTime();
  }

  now(): Date {
    return new Date(this.#ms);
  }

  advance(ms: number): this {
    this.#ms += ms;
    return this;
  }

  advanceDays(days: number): this {
    return this.advance(days * 86_400_000);
  }

  set(to: Date | number): this {
    this.#ms = typeof to === 'number' ? to : to.getTime();
    return this;
  }
}

/**
 * The clock's "now" in milliseconds, for request paths: `Date.now` itself for the system clock
 * (no `Date` allocated per call), the injected clock's reading otherwise.
 */
export function millis(clock: Clock): () => number {
  return clock instanceof SystemClock ? Date.now : () => clock.now().getTime();
}

/** Whole seconds since the epoch, as JWT and Stripe timestamps are. */
export function epochSeconds(clock: Clock): number {
  return Math.floor(clock.now().getTime() / 1000);
}
