import type { Clock } from '../../core/clock.js';
import type { Logger } from '../../core/logger.js';
import type { VerifiedToken } from './verified-token.js';

export type LastUsedTable = 'api_keys' | 'oauth_access_tokens' | 'oauth_clients';

/** Where the batched uses go (`KyselyLastUsedWriter`): one update per table and flush. */
export interface LastUsedWriter {
  write(table: LastUsedTable, ids: readonly string[], at: string): Promise<void>;
}

export interface LastUsedOptions {
  /** A credential's use is recorded at most once per this many milliseconds. Default 60,000. */
  intervalMs?: number;
  /** How long uses gather before one batch is written. Default 1,000 ms. */
  flushAfterMs?: number;
}

/**
 * `last_used_at` of every credential kind without a database write per request: the guard asks
 * `due(touchedAt, now)` (a subtraction, on the credential's cache entry) and records a use at most
 * once a minute per credential; recorded uses gather in memory and are written together, one
 * `UPDATE … WHERE id IN (…)` per table, off the request path. The time written is the flush's, so
 * a last use is exact to the interval plus the flush delay. A failed write is logged, not retried:
 * the next use records it again.
 */
export class LastUsed {
  readonly intervalMs: number;
  readonly #flushAfterMs: number;
  #pending = new Map<LastUsedTable, Set<string>>();
  #timer: NodeJS.Timeout | undefined;
  #flushing: Promise<void> = Promise.resolve();

  constructor(
    private readonly writer: LastUsedWriter,
    private readonly clock: Clock,
    private readonly logger: Logger,
    options: LastUsedOptions = {},
  ) {
    this.intervalMs = options.intervalMs ?? 60_000;
    this.#flushAfterMs = options.flushAfterMs ?? 1_000;
  }

  /** Whether a credential last recorded at `touchedAt` (`performance.now()`) is due again. */
  due(touchedAt: number, now: number): boolean {
    return now - touchedAt >= this.intervalMs;
  }

  record(table: LastUsedTable, id: string): void {
    const ids = this.#pending.get(table);
    if (ids === undefined) this.#pending.set(table, new Set([id]));
    else ids.add(id);
    this.#timer ??= setTimeout(() => void this.flush(), this.#flushAfterMs).unref();
  }

  /** Writes what has gathered (also at shutdown); resolves when it is written or logged. */
  flush(): Promise<void> {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    const batch = this.#pending;
    this.#pending = new Map();
    const at = this.clock.now().toISOString();
    this.#flushing = this.#flushing.then(async () => {
      for (const [table, ids] of batch) {
        try {
          await this.writer.write(table, [...ids], at);
        } catch (err) {
          this.logger.warn(
            { err: (err as Error).message, table },
            'Could not record when credentials were last used',
          );
        }
      }
    });
    return this.#flushing;
  }
}

/** Records an access token's use, and so its client's, when due (the guard's hot path: a subtraction). */
export function touchToken(
  lastUsed: LastUsed | undefined,
  entry: { token: VerifiedToken; touchedAt: number },
  now: number,
): VerifiedToken {
  if (lastUsed === undefined || !lastUsed.due(entry.touchedAt, now)) return entry.token;
  entry.touchedAt = now;
  lastUsed.record('oauth_access_tokens', entry.token.id);
  lastUsed.record('oauth_clients', entry.token.clientId);
  return entry.token;
}
