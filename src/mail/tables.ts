import type { ColumnType, Generated, Selectable } from 'kysely';
import type { NullableTimestamp, Timestamp } from '../database/types.js';

declare module '../database/types.js' {
  interface Database {
    mail_outbox: MailOutboxTable;
  }
}

type Nullable<T> = ColumnType<T | null, T | null | undefined, T | null>;

/**
 * One mail, from the request that queued it until the server took it. `pending` → (claimed by a
 * worker) `sending` → `sent`, or back to `pending` later after a refusal, or `failed` after the
 * last attempt.
 */
export interface MailOutboxTable {
  id: Generated<number>;
  /** The template's name (`verify-email`), for the outbox page and `mail:outbox`. */
  kind: string;
  recipient: string;
  subject: string;
  text: string;
  html: string;
  /** JSON: `[{ filename, contentType, content (base64) }]`. */
  attachments: Nullable<string>;
  /** Fixed when queued, so a mail sent again after a lost answer carries the same Message-ID. */
  message_id: string;
  /** `held`: no transport is configured; the mail stays here, for the outbox page. */
  status: 'held' | 'pending' | 'sending' | 'sent' | 'failed';
  attempts: number;
  available_at: Timestamp;
  /** The claim of the worker sending it, and until when that claim holds. */
  claim: Nullable<string>;
  claimed_until: NullableTimestamp;
  last_error: Nullable<string>;
  sent_at: NullableTimestamp;
  /** 1: the row is deleted once the server took the mail (nothing of it is kept). */
  erase_after_send: ColumnType<number, number | undefined, number>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export type OutboxRow = Selectable<MailOutboxTable>;
