import {
  defineNotification,
  describeOrigin,
  type NotificationKind,
  noticeMail,
  type RequestOrigin,
} from '../accounts/index.js';
import type { EventClass } from '../core/events.js';
import { SignInMethodAdded, SignInMethodRemoved } from './events.js';

export interface SignInMethodNoticeData {
  name: string;
  /** "A passkey (“Work laptop”)". */
  what: string;
  origin: RequestOrigin;
  at: string;
}

const WHAT: Record<string, string> = { passkey: 'A passkey' };

function methodNotice<E extends SignInMethodAdded | SignInMethodRemoved>(
  kind: NotificationKind,
  event: EventClass<E>,
  subject: string,
  verb: string,
) {
  return defineNotification<E, SignInMethodNoticeData>({
    kind,
    event,
    template: noticeMail<SignInMethodNoticeData>({
      name: kind,
      subject: (_, ctx) => `${ctx.appName}: ${subject}`,
      paragraphs: (d, ctx) => [
        `Hello ${d.name},`,
        `${d.what} was ${verb} your ${ctx.appName} account ${describeOrigin(d.origin, d.at)}.`,
        'If this was you, there is nothing to do. If it was not, change your password and remove what you do not know from your account page now.',
      ],
      action: (_, ctx) => ({ label: 'Your account', url: ctx.url('/account') }),
    }),
    async deliver({ user, method, label, origin, at }, notice) {
      await notice.send({
        key: `${kind}:${user.id}:${method}:${at.toISOString()}`,
        userId: user.id,
        to: user.email,
        data: {
          name: user.name,
          what: `${WHAT[method] ?? 'A sign-in method'} (“${label}”)`,
          origin,
          at: at.toISOString(),
        },
      });
    },
  });
}

/** "A passkey (“Work laptop”) was added to your account …": a security notice. */
export const signInMethodAddedNotification = methodNotice(
  'sign-in-method-added',
  SignInMethodAdded,
  'a new way to sign in',
  'added to',
);

export const signInMethodRemovedNotification = methodNotice(
  'sign-in-method-removed',
  SignInMethodRemoved,
  'a way to sign in was removed',
  'removed from',
);
