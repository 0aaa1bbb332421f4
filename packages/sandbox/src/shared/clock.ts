/**
 * The one thing the sandboxes ask of a clock. A host passes its own (anything with `now()`), so
 * trials, renewals and retries follow the host's time; `advance()` also needs `advance(ms)`.
 */
export interface SandboxClock {
  now(): Date;
}

/** A clock that only moves when told to: the Stripe sandbox's default, and the one tests use. */
export class ManualClock implements SandboxClock {
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

/** Real time plus an offset: the standalone Braintree sandbox's clock, so `advance` works without freezing time. */
export class ShiftedClock implements SandboxClock {
  #offsetMs = 0;

  now(): Date {
    return new Date(Date.now() + this.#offsetMs);
  }

  advance(ms: number): this {
    this.#offsetMs += ms;
    return this;
  }
}

/** Moves any clock that can be moved (one with `advance(ms)`); returns false for a clock that cannot. */
export function moveClock(clock: SandboxClock, ms: number): boolean {
  const movable = clock as SandboxClock & { advance?: (ms: number) => unknown };
  if (typeof movable.advance !== 'function') return false;
  movable.advance(ms);
  return true;
}
