import { Users } from '../auth/index.js';
import type { Application, ServiceProvider } from '../kernel/application.js';
import { signinMigrations } from './migrations.js';
import { registerPasskeys } from './passkeys/register-passkeys.js';
import { registerRememberedDevices } from './remembered-devices/register-remembered-devices.js';
import { SignInMethods } from './sign-in-methods.js';
import { registerUpstream } from './upstream/register-upstream.js';

/**
 * The sign-in methods beyond the password (docs/sign-in.md): passkeys (`signin.passkeys`) and
 * upstream identity providers (`signin.upstream`), remembered devices (`signin.rememberDevice`), each in its own folder with its tables, routes,
 * pages and events. Needs `authProvider()`; register it after `accountsProvider()`, whose account
 * page and notices it adds to.
 *
 * @example
 * await app.register(signinProvider());
 */
export function signinProvider(): ServiceProvider {
  return {
    name: 'signin',
    migrations: signinMigrations,

    register(app: Application) {
      const { container } = app;
      container.singleton(
        SignInMethods,
        (c) =>
          new SignInMethods(app.db, async (userId) => {
            const user = await c.make(Users).find(userId);
            return typeof user?.password === 'string' && user.password !== '';
          }),
      );
      if (app.config.signin.passkeys.enabled) registerPasskeys(app);
      registerUpstream(app);
      if (app.config.signin.rememberDevice.enabled) registerRememberedDevices(app);
    },
  };
}
