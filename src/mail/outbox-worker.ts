import { randomUUID } from 'node:crypto';
import type { Clock } from '../core/clock.js';
import type { Logger } from '../core/logger.js';
import { SpanKind, traced } from '../core/tracing.js';
import type { MailConfig } from './config.js';
import type { Outbox } from './outbox.js';
import type { OutboxRow } from './tables.js';
import type { MailAttachment, MailTransport, OutgoingMail } from './transport.js';

export interface OutboxWorkerOptions {
  outbox: Outbox;
  transport: MailTransport;
  from: string;
  clock: Clock;
  logger: Logger;
  config: MailConfig['worker'];
}

/**
 * Drains the outbox: claims due mails, hands each to the transport, records the outcome. A refused
 * mail comes back after a growing wait; every instance may run one, since claims never overlap.
 */
export class OutboxWorker {
  #timer: NodeJS.Timeout | undefined;
  #draining: Promise<number> | undefined;
  #again = false;
  #stopped = false;
  /** A wake not yet followed by a drain: `stop()` sends those mails (a CLI command exits at once). */
  #woken = false;
  /** Sends the server refused since start (metrics read it when scraped). */
  refusals = 0;

  constructor(private readonly options: OutboxWorkerOptions) {}

  /** Polls every `pollMs` (unref'd: it never keeps the process alive). */
  start(): void {
    const { pollMs } = this.options.config;
    if (pollMs <= 0 || this.#timer) return;
    this.#timer = setInterval(() => this.wake(), pollMs);
    this.#timer.unref();
    this.wake();
  }

  /** Drains soon, off the caller's path (a request that queued a mail does not wait for it). */
  wake(): void {
    if (this.#stopped) return;
    this.#woken = true;
    setImmediate(() => {
      this.drain().catch((err) =>
        this.options.logger.error({ err: (err as Error).message }, 'The mail outbox could not be drained'),
      );
    });
  }

  /** Sends every due mail; resolves with how many the server accepted. Calls at once share one run. */
  drain(): Promise<number> {
    if (this.#draining) {
      this.#again = true;
      return this.#draining;
    }
    this.#draining = this.#run().finally(() => {
      this.#draining = undefined;
    });
    return this.#draining;
  }

  async stop(): Promise<void> {
    clearInterval(this.#timer);
    this.#timer = undefined;
    if (this.#woken && !this.#stopped) await this.drain().catch(() => {});
    this.#stopped = true;
    await this.#draining?.catch(() => {});
  }

  async #run(): Promise<number> {
    const { outbox, clock, config } = this.options;
    let sent = 0;
    this.#woken = false;
    do {
      this.#again = false;
      for (;;) {
        const now = clock.now();
        const claim = randomUUID();
        const until = new Date(now.getTime() + config.claimSeconds * 1000);
        const rows = await outbox.claim(claim, now, until, config.batchSize);
        for (const row of rows) if (await this.#deliver(row, claim)) sent++;
        if (rows.length < config.batchSize || this.#stopped) break;
      }
    } while (this.#again && !this.#stopped);
    return sent;
  }

  async #deliver(row: OutboxRow, claim: string): Promise<boolean> {
    const { outbox, transport, clock, logger, config } = this.options;
    try {
      await traced(
        'mail send',
        {
          kind: SpanKind.CLIENT,
          attributes: { 'tollgate.mail.kind': row.kind, 'tollgate.mail.attempt': row.attempts },
        },
        () => transport.send(this.#outgoing(row)),
      );
    } catch (err) {
      this.refusals++;
      const message = err instanceof Error ? err.message : String(err);
      const last = row.attempts >= config.maxAttempts;
      const wait = Math.min(config.backoffSeconds * 2 ** (row.attempts - 1), config.maxBackoffSeconds);
      const retryAt = last ? undefined : new Date(clock.now().getTime() + wait * 1000);
      await outbox.refused(row.id, claim, message, clock.now(), retryAt);
      logger.warn(
        {
          mail: row.id,
          kind: row.kind,
          attempt: row.attempts,
          retryAt: retryAt?.toISOString(),
          err: message,
        },
        last
          ? 'Mail failed for good: `tollgate mail:retry` sends it again'
          : 'Mail refused; it will be retried',
      );
      return false;
    }
    if (!(await outbox.sent(row.id, claim, clock.now()))) {
      logger.warn({ mail: row.id }, 'Mail sent after its claim ran out: raise mail.worker.claimSeconds');
    }
    logger.debug({ mail: row.id, kind: row.kind, via: transport.description }, 'Mail sent');
    return true;
  }

  #outgoing(row: OutboxRow): OutgoingMail {
    return {
      id: row.id,
      kind: row.kind,
      from: this.options.from,
      to: row.recipient,
      subject: row.subject,
      text: row.text,
      html: row.html,
      messageId: row.message_id,
      attachments: row.attachments ? (JSON.parse(row.attachments) as MailAttachment[]) : [],
    };
  }
}
