import type { AuditLog } from './audit-log.js';
import type { AuditEventRow } from './tables.js';

/** What an operator or a user filters the log by; every field optional. */
export interface AuditFilter {
  userId?: number;
  actor?: string;
  kind?: string;
  /** What the events are about (`organization:7`). */
  subject?: string;
  /** Inclusive, ISO-8601. */
  since?: string;
  /** Exclusive, ISO-8601. */
  until?: string;
}

/** One audit event as the JSON API, the export and the security log show it. */
export interface AuditEvent {
  id: number;
  at: string;
  kind: string;
  user_id: number | null;
  actor: string;
  subject: string | null;
  ip: string | null;
  user_agent: string | null;
  request_id: string | null;
  details: Record<string, unknown> | null;
}

export interface AuditPage {
  events: AuditEvent[];
  /** Pass it back as `cursor` for the next (older) page; null on the last page. */
  nextCursor: string | null;
}

const MAX_PAGE = 200;

export function toAuditEvent(row: AuditEventRow): AuditEvent {
  return { ...row, details: row.details ? (JSON.parse(row.details) as Record<string, unknown>) : null };
}

/** A cursor names the last event of a page: opaque to callers. */
const encodeCursor = (id: number) => Buffer.from(`a${id}`).toString('base64url');

/** The id a cursor names, else undefined (not one of ours). */
export function decodeCursor(cursor: string): number | undefined {
  const match = /^a([1-9]\d{0,15})$/.exec(Buffer.from(cursor, 'base64url').toString());
  return match ? Number(match[1]) : undefined;
}

/** Reads the audit log: newest first in pages, or oldest first in full (the export). */
export class AuditReader {
  constructor(private readonly log: AuditLog) {}

  #select(filter: AuditFilter) {
    let query = this.log.db.selectFrom('audit_events').selectAll();
    if (filter.userId !== undefined) query = query.where('user_id', '=', filter.userId);
    if (filter.actor !== undefined) query = query.where('actor', '=', filter.actor);
    if (filter.kind !== undefined) query = query.where('kind', '=', filter.kind);
    if (filter.subject !== undefined) query = query.where('subject', '=', filter.subject);
    if (filter.since !== undefined) query = query.where('at', '>=', filter.since);
    if (filter.until !== undefined) query = query.where('at', '<', filter.until);
    return query;
  }

  /** One page, newest first, older than the event `cursor` names. */
  async page(filter: AuditFilter, options: { limit?: number; cursor?: string } = {}): Promise<AuditPage> {
    await this.log.flush();
    const limit = Math.min(Math.max(options.limit ?? 50, 1), MAX_PAGE);
    let query = this.#select(filter);
    const before = options.cursor === undefined ? undefined : decodeCursor(options.cursor);
    if (before !== undefined) query = query.where('id', '<', before);
    const rows = await query
      .orderBy('id', 'desc')
      .limit(limit + 1)
      .execute();
    const events = rows.slice(0, limit).map(toAuditEvent);
    return { events, nextCursor: rows.length > limit ? encodeCursor(events.at(-1)!.id) : null };
  }

  /** Every matching event, oldest first, read in batches (the export). */
  async *all(filter: AuditFilter, batch = 500): AsyncGenerator<AuditEvent> {
    await this.log.flush();
    let after = 0;
    for (;;) {
      const rows = await this.#select(filter)
        .where('id', '>', after)
        .orderBy('id', 'asc')
        .limit(batch)
        .execute();
      for (const row of rows) yield toAuditEvent(row);
      if (rows.length < batch) return;
      after = rows.at(-1)!.id;
    }
  }
}
