import type { RateLimit, RateLimitClaim, RateLimitResult } from './rate-limit.js';

/** A share of one subject's window, held by this instance. */
export interface Lease {
  readonly subject: string;
  /** No longer this instance's lease for its subject (its window ended, or it was evicted or released). */
  dropped: boolean;
  /** Attempts this instance may still allow without asking the store. */
  left: number;
  /** What the store had left for everyone else at the last claim. */
  shared: number;
  /** When the window ends, in application-clock milliseconds. */
  endsAt: number;
  /** Refused without asking the store until then (the window was spent at the last claim). */
  refusedUntil: number;
  /** The claim under way, if any: concurrent requests wait for it instead of claiming again. */
  claiming: Promise<void> | undefined;
  /** Requests waiting for a claim: the next claim asks for at least as many. */
  waiting: number;
  /** How many attempts the next claim asks for (set when a claim lands). */
  size: number;
  /** Attempts this lease has allowed, and the last sample of them (at `sampledAt`), for `perSecond`. */
  taken: number;
  takenAtSample: number;
  sampledAt: number;
  /** The subject's attempts a second on this instance, as the last claims saw them. */
  perSecond: number;
}

export interface LeasedLimitOptions {
  /**
   * The most attempts one claim takes for a subject this instance sees less often than that in
   * `busyLeaseMs`; default 1,000. 1: every attempt goes to the store.
   */
  maxLease?: number;
  /** A busier subject's claims take about this long of its traffic here; default 1,000 ms. 0: never more than `maxLease`. */
  busyLeaseMs?: number;
  /** How many subjects' leases an instance remembers; default 50,000. */
  capacity?: number;
  /** How long a spent window is refused from memory before the store is asked again; default 1 s. */
  refusedMs?: number;
}

/** A lease whose window ends sooner than this is not handed back: its counter ends with it. */
const RELEASE_MARGIN_MS = 2_000;
/** A subject's rate is measured over at least this long (claims closer together add up). */
const SAMPLE_MS = 100;

/**
 * A shared rate limit counted in memory: an instance claims a batch of attempts from the store
 * (`RateLimit.claim`, one atomic increment) and allows them without a round trip, claiming the
 * next batch in the background when half is used. The store never grants more than the limit, so
 * instances together never allow more than it (no overshoot); a lease an instance does not use
 * is lost to the others for the rest of the window, so N instances may refuse up to
 * N × (lease − 1) attempts early. A lease is a twentieth of the limit (at least 1, and at most a
 * quarter of what the store had left): small limits count every attempt in the store, exactly as
 * `RateLimit.consume` does. It is also at most `maxLease`, or for a subject busier than that
 * about `busyLeaseMs` of its traffic here, so one busy subject costs the store a claim a second
 * per instance, not one per thousand attempts. At shutdown `release` hands the unused part of
 * every lease back, so a restart or a deploy costs nobody attempts.
 */
export class LeasedLimit {
  readonly #leases = new Map<string, Lease>();
  readonly #maxLease: number;
  readonly #busyLeaseMs: number;
  readonly #capacity: number;
  readonly #refusedMs: number;

  constructor(
    readonly limit: RateLimit,
    options: LeasedLimitOptions = {},
  ) {
    this.#maxLease = Math.max(1, options.maxLease ?? 1_000);
    this.#busyLeaseMs = this.#maxLease === 1 ? 0 : Math.max(0, options.busyLeaseMs ?? 1_000);
    this.#capacity = options.capacity ?? 50_000;
    this.#refusedMs = options.refusedMs ?? 1_000;
  }

  get name(): string {
    return this.limit.name;
  }

  /** Counts one attempt at `now` (application-clock ms); answers from memory while the lease lasts. */
  consume(subject: string, now: number): RateLimitResult | Promise<RateLimitResult> {
    let lease = this.#leases.get(subject);
    if (lease !== undefined && now >= lease.endsAt) {
      this.#drop(lease);
      lease = undefined;
    }
    if (lease !== undefined) {
      if (lease.left > 0) return this.#take(subject, lease, now);
      if (now < lease.refusedUntil) return this.#result(false, 0, lease.endsAt - now);
    }
    return this.#wait(subject, now);
  }

  /** The subject's lease, if this instance holds one: for `consumeHeld`. */
  held(subject: string): Lease | undefined {
    return this.#leases.get(subject);
  }

  /**
   * `consume` for the subject of a lease the caller kept (`held`), without looking it up; undefined
   * when the lease cannot answer alone (dropped, its window over, or used up): call `consume` then.
   */
  consumeHeld(lease: Lease, now: number): RateLimitResult | undefined {
    if (lease.dropped || lease.left <= 0 || now >= lease.endsAt) return undefined;
    return this.#take(lease.subject, lease, now);
  }

  async #wait(subject: string, now: number): Promise<RateLimitResult> {
    // Concurrent requests share each claim, which asks for as many attempts as are waiting; one
    // that finds it used up claims again, until the store grants none.
    for (let round = 0; round < 64; round++) {
      let lease = this.#leases.get(subject);
      if (lease === undefined || now >= lease.endsAt) lease = this.#open(subject, now);
      if (lease.left > 0) return this.#take(subject, lease, now);
      if (now < lease.refusedUntil) break;
      lease.waiting++;
      lease.claiming ??= this.#claim(subject, lease, now);
      try {
        await lease.claiming;
      } finally {
        lease.waiting--;
      }
    }
    const lease = this.#leases.get(subject);
    return this.#result(false, 0, lease ? lease.endsAt - now : this.limit.policy.durationSeconds * 1000);
  }

  /**
   * Hands the attempts this instance holds and has not used back to the store (once claims under
   * way have landed), and forgets every lease: for shutdown, after the last request.
   */
  async release(now: number): Promise<void> {
    const leases = [...this.#leases];
    for (const [, lease] of leases) lease.dropped = true;
    this.#leases.clear();
    await Promise.allSettled(leases.map(([, lease]) => lease.claiming));
    const unused = leases.filter(([, lease]) => lease.left > 0 && now < lease.endsAt - RELEASE_MARGIN_MS);
    await Promise.allSettled(unused.map(([subject, lease]) => this.limit.giveBack(subject, lease.left)));
  }

  #take(subject: string, lease: Lease, now: number): RateLimitResult {
    lease.left--;
    lease.taken++;
    // Claimed ahead only in batches: a lease of one stays exact (claimed when needed).
    if (lease.size > 1 && lease.claiming === undefined && lease.shared > 0 && lease.left < lease.size / 2)
      lease.claiming = this.#claim(subject, lease, now).catch(() => undefined);
    return this.#result(true, lease.left + lease.shared, lease.endsAt - now);
  }

  #open(subject: string, now: number): Lease {
    const replaced = this.#leases.get(subject);
    if (replaced !== undefined) this.#drop(replaced);
    else if (this.#leases.size >= this.#capacity) this.#drop(this.#leases.values().next().value!);
    const lease: Lease = {
      subject,
      dropped: false,
      left: 0,
      shared: this.limit.policy.points,
      endsAt: Infinity,
      refusedUntil: 0,
      claiming: undefined,
      waiting: 0,
      size: 1,
      taken: 0,
      takenAtSample: 0,
      sampledAt: now,
      perSecond: 0,
    };
    lease.size = this.#size(lease);
    this.#leases.set(subject, lease);
    return lease;
  }

  #drop(lease: Lease): void {
    lease.dropped = true;
    this.#leases.delete(lease.subject);
  }

  /** How many attempts the next claim asks for. */
  #size(lease: Lease): number {
    const points = this.limit.policy.points;
    const busy = Math.floor((lease.perSecond * this.#busyLeaseMs) / 1000);
    const most = Math.max(this.#maxLease, busy);
    return Math.max(1, Math.min(most, Math.floor(points / 20), Math.floor(lease.shared / 4)));
  }

  /** The subject's rate here, from the attempts taken since the last sample at least `SAMPLE_MS` old. */
  #sample(lease: Lease, now: number): void {
    const elapsed = now - lease.sampledAt;
    if (elapsed < SAMPLE_MS) return;
    lease.perSecond = ((lease.taken - lease.takenAtSample) * 1000) / elapsed;
    lease.sampledAt = now;
    lease.takenAtSample = lease.taken;
  }

  async #claim(subject: string, lease: Lease, now: number): Promise<void> {
    this.#sample(lease, now);
    try {
      // A claim made while requests wait asks for one each (the store grants no more than it has).
      const wanted = Math.max(this.#size(lease), lease.waiting);
      const claim: RateLimitClaim = await this.limit.claim(subject, wanted);
      const endsAt = now + claim.msBeforeNext;
      // A claim that lands in a new window starts the lease afresh.
      if (lease.endsAt !== Infinity && Math.abs(endsAt - lease.endsAt) > 1_000) lease.left = 0;
      lease.left += claim.granted;
      lease.shared = Math.max(0, this.limit.policy.points - claim.consumed);
      lease.endsAt = endsAt;
      if (claim.granted === 0) lease.refusedUntil = Math.min(endsAt, now + this.#refusedMs);
      lease.size = this.#size(lease);
    } finally {
      lease.claiming = undefined;
    }
  }

  #result(allowed: boolean, remaining: number, ms: number): RateLimitResult {
    if (!allowed) this.limit.noteRefusal();
    return {
      name: this.limit.name,
      policy: this.limit.policy,
      allowed,
      remaining: allowed ? Math.min(remaining, this.limit.policy.points) : 0,
      resetSeconds: Math.max(
        1,
        Math.ceil((Number.isFinite(ms) ? ms : this.limit.policy.durationSeconds * 1000) / 1000),
      ),
    };
  }
}
