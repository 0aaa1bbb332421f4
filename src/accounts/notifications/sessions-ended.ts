import { OtherSessionsEnded, type RequestOrigin } from '../events.js';
import { describeOrigin, noticeMail } from './notice-mail.js';
import { defineNotification } from './notification.js';

export interface SessionsEndedData {
  name: string;
  ended: number;
  origin: RequestOrigin;
  at: string;
}

export const sessionsEndedMail = noticeMail<SessionsEndedData>({
  name: 'sessions-ended',
  subject: (_, ctx) => `Your other ${ctx.appName} sessions were signed out`,
  paragraphs: (d, ctx) => [
    `Hello ${d.name},`,
    `Every other session of your ${ctx.appName} account was signed out ${describeOrigin(d.origin, d.at)} (${d.ended} ${d.ended === 1 ? 'session' : 'sessions'}).`,
    'If this was you, there is nothing to do. If it was not, someone else is signed in as you: change your password now.',
  ],
  action: (_, ctx) => ({ label: 'Your account', url: ctx.url('/account') }),
});

/** Tells the user that "sign out other sessions" was used (a security notice). */
export const sessionsEndedNotification = defineNotification({
  kind: 'sessions-ended',
  event: OtherSessionsEnded,
  template: sessionsEndedMail,
  async deliver({ user, ended, origin, at }, notice) {
    await notice.send({
      key: `sessions-ended:${user.id}:${at.toISOString()}`,
      userId: user.id,
      to: user.email,
      data: { name: user.name, ended, origin, at: at.toISOString() },
    });
  },
});
