import type { RequestOrigin } from '../events.js';
import { PasswordChanged } from '../events.js';
import { describeOrigin, noticeMail } from './notice-mail.js';
import { defineNotification } from './notification.js';

export interface PasswordChangedData {
  name: string;
  via: 'account' | 'reset';
  origin: RequestOrigin;
  at: string;
}

export const passwordChangedMail = noticeMail<PasswordChangedData>({
  name: 'password-changed',
  subject: (_, ctx) => `Your ${ctx.appName} password was changed`,
  paragraphs: (d, ctx) => [
    `Hello ${d.name},`,
    `The password of your ${ctx.appName} account was changed ${d.via === 'reset' ? 'through a reset link' : 'on your account page'} ${describeOrigin(d.origin, d.at)}.`,
    'If this was you, there is nothing to do. If it was not, reset your password now: whoever changed it can sign in as you.',
  ],
  action: (_, ctx) => ({ label: 'Reset your password', url: ctx.url('/forgot-password') }),
});

/** Tells the user their password changed (a security notice: only the operator can turn it off). */
export const passwordChangedNotification = defineNotification({
  kind: 'password-changed',
  event: PasswordChanged,
  template: passwordChangedMail,
  async deliver({ user, via, origin, at }, notice) {
    await notice.send({
      key: `password-changed:${user.id}:${at.toISOString()}`,
      userId: user.id,
      to: user.email,
      data: { name: user.name, via, origin, at: at.toISOString() },
    });
  },
});
