import {
  AccountDeleted,
  AccountSections,
  OtherSessionsEnded,
  PasswordChanged,
  TwoFactorDisabled,
} from '../../accounts/index.js';
import { csrfToken, LoginSteps } from '../../auth/index.js';
import { AppEncryptionKey } from '../../kernel/app-key.js';
import type { Application } from '../../kernel/application.js';
import { RememberedDevices } from './remembered-devices.js';
import { RememberedDevicesController } from './remembered-devices-controller.js';
import { RememberedDevicesSection } from './remembered-devices-section.js';

/**
 * "Remember this device" on the second step: the login skips the second factor on a remembered
 * browser; the account page lists and forgets them; a new password, "sign out other sessions",
 * turning the authenticator app off and deleting the account forget them all.
 */
export function registerRememberedDevices(app: Application): void {
  const { container, router, events, config } = app;
  const devices = new RememberedDevices(app.db as never, app.clock, container.make(AppEncryptionKey), {
    days: config.signin.rememberDevice.days,
    cookie: config.signin.rememberDevice.cookie,
    secure: new URL(config.app.url).protocol === 'https:',
  });
  container.instance(RememberedDevices, devices);
  container.make(LoginSteps).rememberDevicesWith(devices);
  container
    .make(AccountSections)
    .add(async (c, user) =>
      RememberedDevicesSection({ devices: await devices.list(user.id), csrfToken: csrfToken(c) }),
    );

  const forgetAll = async ({ user }: { user: { id: number } }) => {
    await devices.revokeAll(user.id);
  };
  events.listen(PasswordChanged, forgetAll);
  events.listen(OtherSessionsEnded, forgetAll);
  events.listen(TwoFactorDisabled, forgetAll);
  // The rows go with the user by their foreign key; a users provider without one needs this.
  events.listen(AccountDeleted, async ({ userId }) => {
    await devices.revokeAll(userId);
  });

  router.controllers.register(RememberedDevicesController, 'Signin/RememberedDevicesController');
  router
    .post('/account/remembered-devices/:id/delete', [RememberedDevicesController, 'destroy'])
    .name('account.remembered-devices.destroy')
    .middleware('web', 'auth');
}
