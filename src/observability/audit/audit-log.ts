import type { Insertable, Kysely } from 'kysely';
import type { Clock } from '../../core/clock.js';
import type { Logger } from '../../core/logger.js';
import { currentRequest } from '../../core/request-context.js';
import type { Database } from '../../database/types.js';
import type { AuditEventsTable } from './tables.js';

/** What a module reports; the rest (time, request id, address, browser) the log fills in. */
export interface AuditEntry {
  /** `sign-in.failed`, `client.secret-rotated`, … (docs/operations.md lists them). */
  kind: string;
  /** The account the event is about: whose security log shows it. */
  userId?: number | null;
  /**
   * Who did it. Default: the request's own actor (`webhook`), else `user:<userId>` in a request,
   * else the log's `defaultActor`.
   */
  actor?: string;
  /** What it was done to (`client:…`). */
  subject?: string;
  /** The kind's own facts, kept as JSON: never a secret. */
  details?: Record<string, unknown>;
  /** Where it came from, when the event carries it; else the current request's. */
  origin?: { ip?: string; userAgent?: string };
  /** When it happened; default: the clock's now. */
  at?: Date;
}

type NewRow = Insertable<AuditEventsTable>;

/** The real `setImmediate`, taken before a test's fake timers could replace it. */
const later = globalThis.setImmediate;

/**
 * The append-only audit log. `record` never waits for the database: rows recorded in one turn of
 * the event loop are written together after it (one multi-row INSERT), so auditing stays off the
 * request's critical path; readers in this process `flush()` first, and closing the application
 * flushes. A batch that fails is retried row by row; a row that still fails is logged (kind and
 * user, never details) and counted in `failures`.
 */
export class AuditLog {
  /** The actor of events recorded outside a request: `system` (jobs); the `tollgate` command sets `cli`. */
  defaultActor = 'system';
  failures = 0;
  #pending: NewRow[] = [];
  #writing: Promise<void> = Promise.resolve();
  #scheduled = false;

  constructor(
    readonly db: Kysely<Database>,
    private readonly clock: Clock,
    private readonly logger: Logger,
  ) {}

  record(entry: AuditEntry): void {
    const request = currentRequest();
    const origin = entry.origin ?? request?.origin?.() ?? {};
    const userId = entry.userId ?? null;
    const actor =
      entry.actor ??
      request?.actor ??
      (request ? (userId !== null ? `user:${userId}` : 'anonymous') : this.defaultActor);
    this.#pending.push({
      at: (entry.at ?? this.clock.now()).toISOString(),
      kind: entry.kind,
      user_id: userId,
      actor,
      subject: entry.subject ?? null,
      ip: origin.ip ?? null,
      user_agent: origin.userAgent?.slice(0, 300) ?? null,
      request_id: request?.id ?? null,
      details: entry.details ? JSON.stringify(entry.details) : null,
    });
    if (!this.#scheduled) {
      this.#scheduled = true;
      later(() => void this.flush());
    }
  }

  /** Resolves once every row recorded so far is written (or logged as failed). */
  flush(): Promise<void> {
    this.#scheduled = false;
    const batch = this.#pending;
    this.#pending = [];
    if (batch.length > 0) this.#writing = this.#writing.then(() => this.#write(batch));
    return this.#writing;
  }

  async #write(batch: NewRow[]): Promise<void> {
    try {
      await this.db.insertInto('audit_events').values(batch).execute();
    } catch {
      for (const row of batch) {
        await this.db
          .insertInto('audit_events')
          .values(row)
          .execute()
          .catch((err: unknown) => {
            this.failures++;
            this.logger.error(
              { err: (err as Error).message, kind: row.kind, user_id: row.user_id },
              'an audit event could not be written',
            );
          });
      }
    }
  }
}
