import type { User } from '../../auth/user.js';
import type { Container } from '../../core/container.js';
import type { EventClass } from '../../core/events.js';
import type { MailContext, MailTemplate } from '../../mail/template.js';
import type { MailAttachment } from '../../mail/transport.js';
import type { NotificationKind } from './kinds.js';

/** One notice to queue: to whom, about what (`key`: the same key is queued once, ever), with what data. */
export interface NoticeMail<D> {
  /** What the notice is about, unique for it: `receipt:in_123`. A second send with it queues nothing. */
  key: string;
  userId: number | null;
  to: string;
  data: D;
  attachments?: MailAttachment[];
  /** Keep nothing of the mail in the outbox once it is sent (`SendOptions.eraseAfterSending`). */
  eraseAfterSending?: boolean;
}

/** What a notification's `deliver` gets beside its event. */
export interface Notice<D> {
  /** Queues the mail (this kind's template) after the caller's change, once per key. True when queued now. */
  send(mail: NoticeMail<D>): Promise<boolean>;
  /** The user with this id, in the application's user model; undefined when there is none (any more). */
  user(id: number | null | undefined): Promise<User | undefined>;
  /** The product name and `APP_URL` links. */
  mail: MailContext;
  now: Date;
  container: Container;
}

/**
 * A notification: the event it answers, its mail template, and `deliver`, which decides whether
 * and to whom the mail goes. Replace either part with `Notifications.replace(kind, …)`.
 */
export interface Notification<E, D> {
  readonly kind: NotificationKind;
  readonly event: EventClass<E>;
  template: MailTemplate<D>;
  deliver(event: E, notice: Notice<D>): Promise<void>;
}

/** Declares a notification (an identity function that keeps the event and data types). */
export function defineNotification<E, D>(notification: Notification<E, D>): Notification<E, D> {
  return notification;
}
