import type { Generated, Selectable } from 'kysely';
import type { Timestamp } from '../../database/types.js';

declare module '../../database/types.js' {
  interface Database {
    audit_events: AuditEventsTable;
    audit_purges: AuditPurgesTable;
  }
}

/** One security or admin event; see docs/operations.md for the kinds. */
export interface AuditEventsTable {
  id: Generated<number>;
  at: Timestamp;
  kind: string;
  /** The account the event is about: whose security log shows it. */
  user_id: number | null;
  /** Who did it: `user:12`, `cli`, `system`, `webhook:stripe`, `client:…`. */
  actor: string;
  /** What it was done to: `client:…`, `api-key:…`, `subscription:…`, `email:…`. */
  subject: string | null;
  ip: string | null;
  user_agent: string | null;
  request_id: string | null;
  /** A small JSON object of the kind's own facts (`{ "method": "password" }`). */
  details: string | null;
}

export type AuditEventRow = Selectable<AuditEventsTable>;

/** One row per purge interval: the instance that inserted it ran that interval's purge. */
export interface AuditPurgesTable {
  slot: string;
  started_at: Timestamp;
  deleted: number | null;
}
