import type { Clock } from '../../core/clock.js';
import type { Logger } from '../../core/logger.js';
import { type UsageKey, usageKeyString } from './usage-key.js';
import type { UsageCount, UsageWriter } from './usage-writer.js';

/** At most this many keys go into one statement (SQLite and PostgreSQL cap bound parameters). */
const KEYS_PER_STATEMENT = 2_000;

/** Units a count takes: whole and positive. */
const countable = (units: number) => units > 0 && Number.isSafeInteger(units);

/** A count waiting for a flush, and which one: `add` refuses it once that flush has taken it. */
export interface PendingCount extends UsageCount {
  readonly batch: number;
}

/**
 * Usage counted in memory and written in batches: `record()` adds to a map (no I/O on the request
 * path); every `flushMs` what has gathered is written with one upsert (`UsageWriter`), and once
 * more when the application closes. A write that fails puts its counts back for the next flush,
 * so nothing is lost while the database is away; only a crash loses the last `flushMs`.
 */
export class UsageMeter {
  #pending = new Map<string, PendingCount>();
  /** Counts recorded now go out with this flush (bumped by each). */
  #batch = 0;
  #timer: NodeJS.Timeout | undefined;
  #flushing: Promise<void> = Promise.resolve();

  constructor(
    private readonly writer: UsageWriter,
    private readonly clock: Clock,
    private readonly logger: Logger,
    readonly flushMs = 5_000,
  ) {}

  /**
   * Counts `units` for `key` (`id`: its `usageKeyString`, when the caller has it). Returns the count
   * they went into, which `add` takes until the next flush.
   */
  record(key: UsageKey, units = 1, id = usageKeyString(key)): PendingCount | undefined {
    if (!countable(units)) return undefined;
    this.#timer ??= setTimeout(() => void this.flush(), this.flushMs).unref();
    const count = this.#pending.get(id);
    if (count !== undefined) {
      count.units += units;
      return count;
    }
    const added = { key, units, batch: this.#batch };
    this.#pending.set(id, added);
    return added;
  }

  /** Adds `units` to a count `record` returned, without looking its key up; false once it was flushed. */
  add(count: PendingCount, units: number): boolean {
    if (count.batch !== this.#batch) return false;
    if (countable(units)) count.units += units;
    return true;
  }

  /** Counts not yet written (for tests and the shutdown log). */
  get pendingKeys(): number {
    return this.#pending.size;
  }

  /** Writes what has gathered; resolves when it is written, or put back after a failure (logged). */
  flush(): Promise<void> {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    const batch = [...this.#pending.values()];
    this.#pending = new Map();
    this.#batch++;
    if (batch.length === 0) return this.#flushing;
    const at = this.clock.now().toISOString();
    this.#flushing = this.#flushing.then(async () => {
      for (let i = 0; i < batch.length; i += KEYS_PER_STATEMENT) {
        const part = batch.slice(i, i + KEYS_PER_STATEMENT);
        try {
          await this.writer.write(part, at);
        } catch (err) {
          this.logger.warn({ err: (err as Error).message, keys: part.length }, 'Could not write API usage');
          this.#putBack(part);
        }
      }
    });
    return this.#flushing;
  }

  #putBack(counts: readonly UsageCount[]): void {
    for (const { key, units } of counts) this.record(key, units);
  }
}
