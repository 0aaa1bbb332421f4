import type { Kysely } from 'kysely';
import { Users } from '../../auth/users.js';
import type { Clock } from '../../core/clock.js';
import type { Container } from '../../core/container.js';
import type { EventDispatcher } from '../../core/events.js';
import type { Logger } from '../../core/logger.js';
import type { Database } from '../../database/types.js';
import type { Mailer } from '../../mail/mailer.js';
import type { MailTemplate } from '../../mail/template.js';
import type { AccountsConfig } from '../config.js';
import { MONEY_NOTIFICATIONS, type NotificationKind } from './kinds.js';
import type { Notice, NoticeMail, Notification } from './notification.js';

export interface NotificationsDeps {
  db: Kysely<Database>;
  mailer: Mailer;
  clock: Clock;
  logger: Logger;
  container: Container;
  config: AccountsConfig['notifications'];
}

type AnyNotification = Notification<any, any>;

/**
 * The notifications in force: each listens to its event, skips a kind the configuration turns off,
 * and queues its mail through the outbox once per key (`account_notifications`), so a webhook
 * delivered twice or handled by two instances at once sends one mail.
 *
 * @example
 * app.container.make(Notifications).replace('receipt', { template: myReceiptMail });
 */
export class Notifications {
  readonly #all = new Map<NotificationKind, AnyNotification>();

  constructor(private readonly deps: NotificationsDeps) {}

  /** Adds a notification and listens to its event. */
  register<E, D>(notification: Notification<E, D>, events: EventDispatcher): this {
    this.#all.set(notification.kind, { ...notification });
    events.listen(notification.event, (event) => this.handle(notification.kind, event));
    return this;
  }

  /** Replaces a notification's template, its `deliver`, or both (the event stays). */
  replace<E, D>(
    kind: NotificationKind,
    parts: Partial<Pick<Notification<E, D>, 'template' | 'deliver'>>,
  ): this {
    const current = this.get(kind);
    this.#all.set(kind, { ...current, ...parts });
    return this;
  }

  get(kind: NotificationKind): AnyNotification {
    const notification = this.#all.get(kind);
    if (!notification) throw new Error(`No notification of kind ${kind} is registered.`);
    return notification;
  }

  enabled(kind: NotificationKind): boolean {
    return this.#all.has(kind) && !this.deps.config.off.includes(kind);
  }

  /**
   * Runs the notification for one event. A money notice that fails throws (the webhook that raised
   * it answers 500 and is delivered again; the key keeps it from going twice); a security notice
   * that fails is logged, so the change it reports still succeeds.
   */
  async handle(kind: NotificationKind, event: unknown): Promise<void> {
    if (!this.enabled(kind)) return;
    const notification = this.get(kind);
    try {
      await notification.deliver(event, this.notice(kind, notification.template));
    } catch (err) {
      if ((MONEY_NOTIFICATIONS as readonly string[]).includes(kind)) throw err;
      this.deps.logger.error({ err, notification: kind }, 'notification not queued');
    }
  }

  private notice<D>(kind: NotificationKind, template: MailTemplate<D>): Notice<D> {
    const { mailer, container, clock } = this.deps;
    return {
      send: (mail) => this.send(kind, template, mail),
      user: async (id) => (id == null ? undefined : container.make(Users).find(id)),
      mail: mailer.context,
      now: clock.now(),
      container,
    };
  }

  /** Claims the key and queues the mail in one transaction: both happen, or neither. */
  private async send<D>(kind: NotificationKind, template: MailTemplate<D>, mail: NoticeMail<D>) {
    const { db, mailer, clock } = this.deps;
    const queued = await db.transaction().execute(async (trx) => {
      const claimed = await trx
        .insertInto('account_notifications')
        .values({ key: mail.key, kind, user_id: mail.userId, created_at: clock.now().toISOString() })
        .onConflict((oc) => oc.column('key').doNothing())
        .returning('key')
        .executeTakeFirst();
      if (!claimed) return false;
      const id = await mailer.send(template, mail.to, mail.data, {
        db: trx,
        attachments: mail.attachments,
        eraseAfterSending: mail.eraseAfterSending,
      });
      await trx
        .updateTable('account_notifications')
        .set({ mail_id: id })
        .where('key', '=', mail.key)
        .execute();
      return true;
    });
    if (queued) mailer.wake();
    return queued;
  }
}
