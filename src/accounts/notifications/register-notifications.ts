import { SignedIn } from '../../auth/events.js';
import type { Application } from '../../kernel/application.js';
import { Mailer } from '../../mail/mailer.js';
import { SignedInFromNewDevice } from '../events.js';
import { KnownDevices } from '../known-devices.js';
import { accountDeletedNotification } from './account-deleted.js';
import { credentialCreatedNotification } from './credential-created.js';
import { emailChangedNotification } from './email-changed.js';
import { newDeviceNotification } from './new-device.js';
import { Notifications } from './notifications.js';
import { passwordChangedNotification } from './password-changed.js';
import { paymentActionRequiredNotification } from './payment-action-required.js';
import { paymentFailedNotification } from './payment-failed.js';
import { receiptNotification } from './receipt.js';
import { sessionsEndedNotification } from './sessions-ended.js';
import { subscriptionCancelledNotification } from './subscription-cancelled.js';
import { trialEndingNotification } from './trial-ending.js';
import {
  recoveryCodesRegeneratedNotification,
  twoFactorDisabledNotification,
  twoFactorEnabledNotification,
  twoFactorLockedNotification,
} from './two-factor-notices.js';

/** The notifications in force, each listening to its event; and the device tracking the new-device notice needs. */
export function registerNotifications(app: Application): Notifications {
  const { container, events, clock, logger, config } = app;
  const notifications = new Notifications({
    db: app.db,
    mailer: container.make(Mailer),
    clock,
    logger,
    container,
    config: config.accounts.notifications,
  });
  container.instance(Notifications, notifications);
  notifications
    .register(passwordChangedNotification, events)
    .register(emailChangedNotification, events)
    .register(newDeviceNotification, events)
    .register(credentialCreatedNotification, events)
    .register(twoFactorEnabledNotification, events)
    .register(twoFactorDisabledNotification, events)
    .register(recoveryCodesRegeneratedNotification, events)
    .register(twoFactorLockedNotification, events)
    .register(sessionsEndedNotification, events)
    .register(accountDeletedNotification, events);
  // The money notices: their events come from billing (none without billingProvider()).
  notifications
    .register(paymentActionRequiredNotification, events)
    .register(paymentFailedNotification, events)
    .register(receiptNotification, events)
    .register(trialEndingNotification, events)
    .register(subscriptionCancelledNotification, events);

  const devices = new KnownDevices(app.db);
  container.instance(KnownDevices, devices);
  events.listen(SignedIn, async ({ user, ip, userAgent, at, methods }) => {
    const origin = { ...(ip ? { ip } : {}), ...(userAgent ? { userAgent } : {}) };
    if ((await devices.sighted(user.id, origin, at)) === 'new')
      await events.dispatch(new SignedInFromNewDevice(user, origin, at, methods));
  });
  return notifications;
}
