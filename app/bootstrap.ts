import {
  Application,
  type ApplicationOptions,
  authProvider,
  billingProvider,
  configFromEnv,
  configFromFile,
  type DeepPartial,
  defineConfig,
  oauthProvider,
  plansProvider,
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
  const config = defineConfig(referenceConfig, await configFromFile(), configFromEnv(), overrides);
  const app = await Application.create(config, options);
  app.container.instance(UserModelKey, AppUser);
  await app.register(authProvider());
  await app.register(oauthProvider({ approvalView: approvalPage }));
  await app.register(billingProvider());
  await app.register(routes);
  await app.register(webProvider());
  // Inert until `plans.definitions` declares plans (docs/api-plans.md).
  await app.register(plansProvider());
  return app;
}
