import { type Kysely, sql } from 'kysely';
import { isPostgres } from '../database/schema.js';
import type { Database } from '../database/types.js';
import type { OutboxRow } from './tables.js';
import type { MailAttachment } from './transport.js';

export interface QueuedMail {
  kind: string;
  to: string;
  subject: string;
  text: string;
  html: string;
  attachments?: MailAttachment[];
  messageId: string;
  /** Delete the row once the server took the mail. */
  eraseAfterSending?: boolean;
}

/**
 * The `mail_outbox` table. Rows are claimed in one statement (with `SKIP LOCKED` on PostgreSQL),
 * so two workers draining at once never take the same mail, and a mail is written back only by
 * the claim that took it.
 */
export class Outbox {
  constructor(private readonly db: Kysely<Database>) {}

  /** Adds a mail through `db`: pass the transaction that causes it, and it exists only if that commits. */
  async add(
    mail: QueuedMail,
    status: 'pending' | 'held',
    now: Date,
    db: Kysely<Database> = this.db,
  ): Promise<number> {
    const at = now.toISOString();
    const row = await db
      .insertInto('mail_outbox')
      .values({
        kind: mail.kind,
        recipient: mail.to,
        subject: mail.subject,
        text: mail.text,
        html: mail.html,
        attachments: mail.attachments?.length ? JSON.stringify(mail.attachments) : null,
        message_id: mail.messageId,
        erase_after_send: mail.eraseAfterSending ? 1 : 0,
        status,
        attempts: 0,
        available_at: at,
        created_at: at,
        updated_at: at,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return row.id;
  }

  /** Takes up to `limit` due mails (and mails whose worker's claim ran out) for `claim` until `until`. */
  async claim(claim: string, now: Date, until: Date, limit: number): Promise<OutboxRow[]> {
    const at = now.toISOString();
    let due = this.db
      .selectFrom('mail_outbox')
      .select('id')
      .where((eb) =>
        eb.or([
          eb.and([eb('status', '=', 'pending'), eb('available_at', '<=', at)]),
          eb.and([eb('status', '=', 'sending'), eb('claimed_until', '<=', at)]),
        ]),
      )
      .orderBy('id')
      .limit(limit);
    if (isPostgres(this.db)) due = due.forUpdate().skipLocked();
    return this.db
      .updateTable('mail_outbox')
      .set({
        status: 'sending',
        claim,
        claimed_until: until.toISOString(),
        attempts: sql<number>`attempts + 1`,
        updated_at: at,
      })
      .where('id', 'in', due)
      .returningAll()
      .execute();
  }

  /**
   * Records the server's acceptance (a mail queued with `eraseAfterSending` is deleted instead);
   * false when this claim no longer holds the mail.
   */
  async sent(id: number, claim: string, now: Date): Promise<boolean> {
    const erased = await this.db
      .deleteFrom('mail_outbox')
      .where('id', '=', id)
      .where('claim', '=', claim)
      .where('status', '=', 'sending')
      .where('erase_after_send', '=', 1)
      .executeTakeFirst();
    if (erased.numDeletedRows > 0n) return true;
    const at = now.toISOString();
    const result = await this.release(id, claim)
      .set({
        status: 'sent',
        sent_at: at,
        claim: null,
        claimed_until: null,
        last_error: null,
        updated_at: at,
      })
      .executeTakeFirst();
    return result.numUpdatedRows > 0n;
  }

  /** Puts a refused mail back for `retryAt`, or marks it `failed` when `retryAt` is undefined. */
  async refused(
    id: number,
    claim: string,
    error: string,
    now: Date,
    retryAt: Date | undefined,
  ): Promise<void> {
    await this.release(id, claim)
      .set({
        status: retryAt ? 'pending' : 'failed',
        available_at: (retryAt ?? now).toISOString(),
        claim: null,
        claimed_until: null,
        last_error: error.slice(0, 1000),
        updated_at: now.toISOString(),
      })
      .execute();
  }

  private release(id: number, claim: string) {
    return this.db
      .updateTable('mail_outbox')
      .where('id', '=', id)
      .where('claim', '=', claim)
      .where('status', '=', 'sending');
  }

  /** How many mails wait in each state other than `sent` (`held`, `pending`, `sending`, `failed`). */
  async depth(): Promise<Partial<Record<OutboxRow['status'], number>>> {
    const rows = await this.db
      .selectFrom('mail_outbox')
      .select(['status', (eb) => eb.fn.countAll<number | string>().as('count')])
      .where('status', '!=', 'sent')
      .groupBy('status')
      .execute();
    return Object.fromEntries(rows.map((r) => [r.status, Number(r.count)]));
  }

  find(id: number): Promise<OutboxRow | undefined> {
    return this.db.selectFrom('mail_outbox').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /** The newest mails first, optionally of one status or to one address. */
  list(options: { status?: OutboxRow['status']; to?: string; limit?: number } = {}): Promise<OutboxRow[]> {
    let query = this.db
      .selectFrom('mail_outbox')
      .selectAll()
      .orderBy('id', 'desc')
      .limit(options.limit ?? 50);
    if (options.status) query = query.where('status', '=', options.status);
    if (options.to) query = query.where('recipient', '=', options.to);
    return query.execute();
  }

  /**
   * Deletes every mail to `address` but those of the `keep` kinds that have not gone out yet
   * (a deleted account's: its links and notices are not needed any more). Returns how many.
   */
  async forgetRecipient(address: string, keep: string[] = []): Promise<number> {
    let query = this.db.deleteFrom('mail_outbox').where('recipient', '=', address);
    if (keep.length > 0)
      query = query.where((eb) => eb.or([eb('kind', 'not in', keep), eb('status', '=', 'sent')]));
    const result = await query.executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  /** Makes failed (or held) mails due again with fresh attempts: all failed ones, or the ids given. */
  async retry(now: Date, ids?: number[]): Promise<number> {
    const at = now.toISOString();
    let query = this.db
      .updateTable('mail_outbox')
      .set({ status: 'pending', attempts: 0, available_at: at, last_error: null, updated_at: at });
    query = ids
      ? query.where('id', 'in', ids.length ? ids : [-1]).where('status', 'in', ['failed', 'held'])
      : query.where('status', '=', 'failed');
    const result = await query.executeTakeFirst();
    return Number(result.numUpdatedRows);
  }
}
