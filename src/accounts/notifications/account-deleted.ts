import { AccountDeleted, type RequestOrigin } from '../events.js';
import { describeOrigin, noticeMail } from './notice-mail.js';
import { defineNotification } from './notification.js';

export interface AccountDeletedData {
  name: string;
  origin: RequestOrigin;
  at: string;
}

export const accountDeletedMail = noticeMail<AccountDeletedData>({
  name: 'account-deleted',
  subject: (_, ctx) => `Your ${ctx.appName} account was deleted`,
  paragraphs: (d, ctx) => [
    `Hello ${d.name},`,
    `Your ${ctx.appName} account was deleted ${describeOrigin(d.origin, d.at)}, as you asked on your account page. Its subscriptions were cancelled, and every token, API key and application it had was revoked.`,
    'Invoices already issued are kept, as the law requires; nothing else of yours is.',
    'If this was not you, reply to this mail at once.',
  ],
});

/** Says goodbye to the deleted account's address (a security notice): the last mail it gets. */
export const accountDeletedNotification = defineNotification({
  kind: 'account-deleted',
  event: AccountDeleted,
  template: accountDeletedMail,
  async deliver({ userId, email, name, origin, at }, notice) {
    await notice.send({
      key: `account-deleted:${userId}`,
      userId,
      to: email,
      data: { name, origin, at: at.toISOString() },
      // The outbox keeps nothing addressed to a deleted account once this has gone out.
      eraseAfterSending: true,
    });
  },
});
