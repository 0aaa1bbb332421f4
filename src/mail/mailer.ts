import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Clock } from '../core/clock.js';
import type { Logger } from '../core/logger.js';
import type { Database } from '../database/types.js';
import type { Outbox } from './outbox.js';
import type { OutboxWorker } from './outbox-worker.js';
import { type MailContext, type MailTemplate, renderMail } from './template.js';
import type { MailAttachment } from './transport.js';

export interface SendOptions {
  /**
   * The transaction whose commit causes the mail: the mail is queued inside it, so it is sent only
   * if that commits. The worker finds it at its next poll (or call `mailer.wake()` after the commit).
   */
  db?: Kysely<Database>;
  attachments?: MailAttachment[];
  /**
   * Keep nothing of the mail once the server took it: its row is deleted then (a last mail to an
   * address whose account is gone). Without a transport the mail is held, and stays.
   */
  eraseAfterSending?: boolean;
}

export interface MailerOptions {
  outbox: Outbox;
  /** Absent when no transport is configured: mails are held in the outbox. */
  worker: OutboxWorker | undefined;
  context: MailContext;
  clock: Clock;
  logger: Logger;
  /** Where a held mail can be read (the development outbox page), or how. */
  heldAt: (id: number) => string;
}

/**
 * Sends mail through the outbox: `send()` renders a template and queues it (a row, written with
 * the caller's transaction when given); the worker delivers it after, off the request's path.
 * @example await app.container.make(Mailer).send(welcome, user.email, { name: user.name });
 */
export class Mailer {
  readonly #messageHost: string;

  constructor(private readonly options: MailerOptions) {
    this.#messageHost = new URL(options.context.appUrl).hostname || 'localhost';
  }

  get context(): MailContext {
    return this.options.context;
  }

  /** True when mail leaves the outbox (a transport is configured), false when it is held there. */
  get delivers(): boolean {
    return this.options.worker !== undefined;
  }

  async send<D>(template: MailTemplate<D>, to: string, data: D, options: SendOptions = {}): Promise<number> {
    const { outbox, worker, clock, logger } = this.options;
    const mail = await renderMail(template, data, this.options.context);
    const id = await outbox.add(
      {
        ...mail,
        to,
        attachments: options.attachments,
        messageId: `<${randomUUID()}@${this.#messageHost}>`,
        eraseAfterSending: options.eraseAfterSending,
      },
      worker ? 'pending' : 'held',
      clock.now(),
      options.db,
    );
    // The log names the mail and where to read it, never its content: links in it are credentials.
    if (!worker)
      logger.info(
        { mail: id, kind: mail.kind, to, read: this.options.heldAt(id) },
        'Mail kept in the outbox (no MAIL_URL)',
      );
    else if (!options.db) worker.wake();
    return id;
  }

  /** Wakes the worker: after committing a transaction that queued mail. */
  wake(): void {
    this.options.worker?.wake();
  }

  /** Delivers every due mail now (tests, the CLI); resolves with how many the server accepted. */
  async drain(): Promise<number> {
    return (await this.options.worker?.drain()) ?? 0;
  }
}
