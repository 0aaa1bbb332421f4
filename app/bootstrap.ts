import {
  Application,
  type ApplicationOptions,
  accountsProvider,
  authProvider,
  billingProvider,
  configFromEnv,
  configFromFile,
  type DeepPartial,
  defineConfig,
  mailProvider,
  oauthProvider,
  observabilityProvider,
  organizationsProvider,
  plansProvider,
  signinProvider,
  type TollgateConfig,
  UserModelKey,
} from 'tollgate';
import { referenceConfig } from './config.js';
import { routes } from './routes.js';
import { AppUser } from './user.js';
import { approvalPage } from './web/pages/approval-page.js';
import { webProvider } from './web/provider.js';

/**
 * The reference service, unbooted. The CLI (`tollgate …`) and `npm start` both build it here, so
 * they see the same providers, migrations and routes. Layers: the service's own config, the
 * optional config file, the environment, then `overrides` (tests).
 */
export async function createApp(
  overrides: DeepPartial<TollgateConfig> = {},
  options: ApplicationOptions = {},
): Promise<Application> {
  // Plans that a later layer declares replace the service's own, rather than merging into them.
  const own = overrides.plans?.definitions
    ? { ...referenceConfig, plans: { ...referenceConfig.plans, definitions: undefined } }
    : referenceConfig;
  const config = defineConfig(own, await configFromFile(), configFromEnv(), overrides);
  const app = await Application.create(config, options);
  app.container.instance(UserModelKey, AppUser);
  // `/ready` and, with METRICS_TOKEN or METRICS_PORT, `/metrics` (docs/operations.md).
  await app.register(observabilityProvider());
  await app.register(authProvider());
  // Mail through the outbox: MAIL_URL's SMTP server, else held and shown at /dev/mail (docs/mail.md).
  await app.register(mailProvider());
  await app.register(oauthProvider({ approvalView: approvalPage }));
  await app.register(billingProvider());
  await app.register(routes);
  await app.register(webProvider());
  // The plans of app/config.ts (free, basic, pro): limits, quotas and the usage page (docs/api-plans.md).
  await app.register(plansProvider());
  // E-mail verification and the `verified` middleware (docs/accounts.md).
  await app.register(accountsProvider());
  // Organizations: members with roles, invitations by e-mail (docs/organizations.md).
  await app.register(organizationsProvider());
  // Passkeys on the login and account pages (docs/sign-in.md).
  await app.register(signinProvider());
  return app;
}
