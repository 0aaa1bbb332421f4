import { type RequestOrigin, SignedInFromNewDevice } from '../events.js';
import { describeOrigin, noticeMail } from './notice-mail.js';
import { defineNotification } from './notification.js';

export interface NewDeviceData {
  name: string;
  origin: RequestOrigin;
  at: string;
  /** How the user signed in (`amr`); absent in notices queued before it was recorded. */
  methods?: string[];
}

/** "with the password and a one-time code" for the notice. */
function signedInWith(methods: readonly string[] | undefined): string {
  if (!methods?.length) return '';
  if (methods.includes('hwk'))
    return methods.includes('pwd') ? ' with the password and a passkey' : ' with a passkey';
  return methods.includes('otp') ? ' with the password and a one-time code' : ' with the password alone';
}

export const newDeviceMail = noticeMail<NewDeviceData>({
  name: 'new-device',
  subject: (_, ctx) => `New sign-in to your ${ctx.appName} account`,
  paragraphs: (d, ctx) => [
    `Hello ${d.name},`,
    `Your ${ctx.appName} account was signed in to${signedInWith(d.methods)} from a device we had not seen before, ${describeOrigin(d.origin, d.at)}.`,
    'If this was you, there is nothing to do. If it was not, change your password now.',
  ],
  action: (_, ctx) => ({ label: 'Reset your password', url: ctx.url('/forgot-password') }),
});

/** Tells the user of a sign-in from a new device (a security notice; not on their first sign-in). */
export const newDeviceNotification = defineNotification({
  kind: 'new-device',
  event: SignedInFromNewDevice,
  template: newDeviceMail,
  async deliver({ user, origin, at, methods }, notice) {
    await notice.send({
      key: `new-device:${user.id}:${at.toISOString()}`,
      userId: user.id,
      to: user.email,
      data: { name: user.name, origin, at: at.toISOString(), methods: [...methods] },
    });
  },
});
