/**
 * How a sandbox delivers its webhooks.
 * - `realistic` (the default): like the real providers — asynchronously (after the API call that
 *   caused them, or even while it is answering), in shuffled order, at least once (some
 *   deliveries are duplicated), retried with backoff when the receiver answers non-2xx or cannot
 *   be reached, then given up. Randomness comes from a seed, so a failing run can be replayed.
 * - `ordered`: each event once, in order, awaited before the API call returns; no retries.
 *   Deterministic, for focused tests.
 */
export type DeliveryMode = 'realistic' | 'ordered';

export interface DeliveryOptions {
  mode?: DeliveryMode;
  /** Seeds shuffling, duplicates and delays. Default: `SANDBOX_WEBHOOK_SEED` from the environment, else random. */
  seed?: number;
  /** The share of deliveries sent twice (0..1). Default 0.25. */
  duplicates?: number;
  /** The longest random wait before a first attempt, in milliseconds. Default 15. */
  maxDelayMs?: number;
  /** Waits before each retry, in milliseconds; after the last, the delivery is given up. Default [10, 40, 160, 640]. */
  retryDelaysMs?: number[];
}

/** What a sandbox exposes of its delivery: the mode, the seed to replay it, and a way to wait for it. */
export interface WebhookDeliveryControl {
  readonly mode: DeliveryMode;
  readonly seed: number;
  /** Deliveries scheduled and not yet done or given up. */
  readonly pending: number;
  /** Resolves once every scheduled delivery (retries included) succeeded or was given up. */
  settled(): Promise<void>;
}

/** One attempt to deliver one webhook: true when the receiver accepted it (2xx). */
export type DeliveryAttempt = () => Promise<boolean>;

const DEFAULTS = { duplicates: 0.25, maxDelayMs: 15, retryDelaysMs: [10, 40, 160, 640] };

/** A small seeded generator (mulberry32): the same seed gives the same shuffles and delays. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

function defaultSeed(): number {
  const fromEnv = Number.parseInt(process.env.SANDBOX_WEBHOOK_SEED ?? '', 10);
  return Number.isFinite(fromEnv) ? fromEnv : Math.floor(Math.random() * 2 ** 31);
}

const sleep = (ms: number) =>
  new Promise<void>((resolve) => {
    // Never keeps a process alive by itself: the application decides when to exit.
    setTimeout(resolve, ms).unref?.();
  });

/** Schedules webhook deliveries in one of the two modes. */
export class DeliveryScheduler implements WebhookDeliveryControl {
  readonly mode: DeliveryMode;
  readonly seed: number;
  readonly #random: () => number;
  readonly #duplicates: number;
  readonly #maxDelayMs: number;
  readonly #retryDelaysMs: number[];
  readonly #inFlight = new Set<Promise<void>>();

  constructor(options: DeliveryOptions | DeliveryMode = {}) {
    const o = typeof options === 'string' ? { mode: options } : options;
    this.mode = o.mode ?? 'realistic';
    this.seed = o.seed ?? defaultSeed();
    this.#random = seededRandom(this.seed);
    this.#duplicates = o.duplicates ?? DEFAULTS.duplicates;
    this.#maxDelayMs = o.maxDelayMs ?? DEFAULTS.maxDelayMs;
    this.#retryDelaysMs = o.retryDelaysMs ?? DEFAULTS.retryDelaysMs;
  }

  get pending(): number {
    return this.#inFlight.size;
  }

  /**
   * Delivers a batch of events (what one API call or one billing step caused): `ordered` awaits
   * each in turn, once; `realistic` schedules them shuffled, some twice, and returns at once.
   */
  async dispatch(attempts: DeliveryAttempt[]): Promise<void> {
    if (this.mode === 'ordered') {
      for (const attempt of attempts) await attempt();
      return;
    }
    const copies = attempts.flatMap((a) => (this.#random() < this.#duplicates ? [a, a] : [a]));
    for (let i = copies.length - 1; i > 0; i--) {
      const j = Math.floor(this.#random() * (i + 1));
      [copies[i], copies[j]] = [copies[j]!, copies[i]!];
    }
    for (const attempt of copies) this.#track(this.#deliver(attempt, this.#random() * this.#maxDelayMs));
  }

  async settled(): Promise<void> {
    while (this.#inFlight.size > 0) await Promise.allSettled([...this.#inFlight]);
  }

  async #deliver(attempt: DeliveryAttempt, delayMs: number): Promise<void> {
    await sleep(delayMs);
    for (let retry = 0; ; retry++) {
      const ok = await attempt().catch(() => false);
      const wait = this.#retryDelaysMs[retry];
      if (ok || wait === undefined) return;
      // Jittered backoff, as providers spread their retries.
      await sleep(wait * (0.5 + this.#random()));
    }
  }

  #track(delivery: Promise<void>): void {
    this.#inFlight.add(delivery);
    void delivery.finally(() => this.#inFlight.delete(delivery));
  }
}
