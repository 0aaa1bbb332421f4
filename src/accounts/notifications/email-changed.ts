import { EmailChanged, type RequestOrigin } from '../events.js';
import { describeOrigin, noticeMail } from './notice-mail.js';
import { defineNotification } from './notification.js';

export interface EmailChangedData {
  name: string;
  newEmail: string;
  origin: RequestOrigin;
  at: string;
}

export const emailChangedMail = noticeMail<EmailChangedData>({
  name: 'email-changed',
  subject: (_, ctx) => `Your ${ctx.appName} e-mail address was changed`,
  paragraphs: (d, ctx) => [
    `Hello ${d.name},`,
    `The e-mail address of your ${ctx.appName} account was changed to ${d.newEmail} ${describeOrigin(d.origin, d.at)}. Mail about the account now goes there, not here.`,
    'If this was not you, reply to this mail or contact us at once: someone else may control your account.',
  ],
  action: (_, ctx) => ({ label: 'Sign in', url: ctx.url('/login') }),
});

/** Tells the old address that the account's address changed (a security notice). */
export const emailChangedNotification = defineNotification({
  kind: 'email-changed',
  event: EmailChanged,
  template: emailChangedMail,
  async deliver({ user, previousEmail, origin, at }, notice) {
    await notice.send({
      key: `email-changed:${user.id}:${at.toISOString()}`,
      userId: user.id,
      to: previousEmail,
      data: { name: user.name, newEmail: user.email, origin, at: at.toISOString() },
    });
  },
});
