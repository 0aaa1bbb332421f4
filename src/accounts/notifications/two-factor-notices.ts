import type { User } from '../../auth/user.js';
import type { EventClass } from '../../core/events.js';
import {
  RecoveryCodesRegenerated,
  type RequestOrigin,
  TwoFactorDisabled,
  TwoFactorEnabled,
  TwoFactorLocked,
} from '../events.js';
import type { NotificationKind } from './kinds.js';
import { describeOrigin, noticeMail } from './notice-mail.js';
import { defineNotification } from './notification.js';

/** What every two-factor notice carries; `until` only for a lock. */
export interface TwoFactorNoticeData {
  name: string;
  origin: RequestOrigin;
  at: string;
  until?: string;
}

interface TwoFactorEvent {
  user: User;
  origin: RequestOrigin;
  at: Date;
  until?: Date;
}

/** A security notice about the account's second factor: who, what happened, where from. */
function twoFactorNotice<E extends TwoFactorEvent>(
  kind: NotificationKind,
  event: EventClass<E>,
  subject: string,
  happened: (d: TwoFactorNoticeData) => string,
  ifNotYou: string,
) {
  return defineNotification<E, TwoFactorNoticeData>({
    kind,
    event,
    template: noticeMail<TwoFactorNoticeData>({
      name: kind,
      subject: (_, ctx) => `${ctx.appName}: ${subject}`,
      paragraphs: (d, ctx) => [
        `Hello ${d.name},`,
        `${happened(d)} on your ${ctx.appName} account ${describeOrigin(d.origin, d.at)}.`,
        `If this was you, there is nothing to do. ${ifNotYou}`,
      ],
      action: (_, ctx) => ({ label: 'Your account', url: ctx.url('/account') }),
    }),
    async deliver({ user, origin, at, until }, notice) {
      await notice.send({
        key: `${kind}:${user.id}:${at.toISOString()}`,
        userId: user.id,
        to: user.email,
        data: {
          name: user.name,
          origin,
          at: at.toISOString(),
          ...(until ? { until: until.toISOString() } : {}),
        },
      });
    },
  });
}

const CHANGE_PASSWORD = 'If it was not, change your password now: whoever did it can sign in as you.';

export const twoFactorEnabledNotification = twoFactorNotice(
  'two-factor-enabled',
  TwoFactorEnabled,
  'two-factor authentication is on',
  () => 'Two-factor authentication (an authenticator app) was turned on',
  CHANGE_PASSWORD,
);

export const twoFactorDisabledNotification = twoFactorNotice(
  'two-factor-disabled',
  TwoFactorDisabled,
  'two-factor authentication was turned off',
  () => 'Two-factor authentication was turned off',
  CHANGE_PASSWORD,
);

export const recoveryCodesRegeneratedNotification = twoFactorNotice(
  'recovery-codes-regenerated',
  RecoveryCodesRegenerated,
  'new recovery codes',
  () => 'New recovery codes were made (the old ones no longer work)',
  CHANGE_PASSWORD,
);

export const twoFactorLockedNotification = twoFactorNotice(
  'two-factor-locked',
  TwoFactorLocked,
  'two-factor sign-in locked after wrong codes',
  (d) =>
    `Someone gave your password, then too many wrong two-factor codes; two-factor sign-in is locked until ${d.until?.slice(0, 16).replace('T', ' ')} UTC. This happened`,
  'If it was not, change your password now: whoever tried knows it.',
);
