import { authProvider } from '../../src/auth/provider.js';
import { UserModelKey } from '../../src/auth/users.js';
import { billingProvider, closeBilling, type WebhookController } from '../../src/billing/index.js';
import type { TestClock } from '../../src/core/clock.js';
import type { DeepPartial, TollgateConfig } from '../../src/core/config.js';
import type { Application, ServiceProvider } from '../../src/kernel/application.js';
import { listen, type RunningServer } from '../../src/kernel/server.js';
import { createTestApp, type TestApp } from '../support/app.js';
import type { Engine } from '../support/engines.js';
import { TestUser } from './contract/context.js';
import type { EditionHarness, EditionSandbox } from './harness.js';
import { stripeHarness } from './stripe-harness.js';

/** A route that swallows webhooks: see `startBillingApp`. */
export const HELD_WEBHOOKS = '/webhooks-held';

export interface BillingApp {
  t: TestApp;
  server: RunningServer;
}

/** The app under test on the edition's sandbox, served over HTTP, the sandbox's webhooks pointed at it. */
export async function startBillingApp(options: {
  /** The database engine (see test/support/engines.ts); default the process's one. */
  engine?: Engine;
  harness: EditionHarness;
  sandbox: EditionSandbox;
  clock: TestClock;
  billing: DeepPartial<TollgateConfig['billing']>;
  controller: typeof WebhookController;
  /** Providers registered before auth and billing (say, `observabilityProvider()`). */
  providers?: ServiceProvider[];
  /** More configuration (not billing's). */
  config?: DeepPartial<TollgateConfig>;
  /** More routes or bindings, before the app boots. */
  setup?: (app: Application) => void;
}): Promise<BillingApp> {
  const { harness, sandbox } = options;
  const t = await createTestApp({
    engine: options.engine,
    clock: options.clock,
    config: { ...options.config, billing: { ...sandbox.config, ...options.billing } },
    providers: [...(options.providers ?? []), authProvider(), billingProvider()],
    setup: (app) => {
      app.container.instance(UserModelKey, TestUser);
      // Outside the `web` group: no session, no CSRF (spec, "Webhook receiver").
      app.router.post(harness.webhook.path, [options.controller, 'handle']);
      // Where a test points the sandbox to lose deliveries: accepted (so not retried), never processed.
      app.router.post(HELD_WEBHOOKS, (c) => c.body(null, 204));
      options.setup?.(app);
    },
  });
  const server = await listen(t.app, '127.0.0.1', 0);
  sandbox.setWebhook(`${server.url}${harness.webhook.path}`);
  return { t, server };
}

/** Closes what `startBillingApp` and the harness started, whichever of them did start. */
export async function stopBillingApp(
  app: Partial<BillingApp>,
  sandbox: EditionSandbox | undefined,
): Promise<void> {
  await app.server?.close();
  if (app.t) await closeBilling(app.t.app);
  await app.t?.close();
  await sandbox?.close();
}

/** The Stripe sandbox with the harness's monthly and other plans, and the app over it. */
export async function startStripeBillingApp(
  engine: Engine,
  clock: TestClock,
): Promise<BillingApp & { sandbox: EditionSandbox }> {
  const { plans } = stripeHarness;
  const sandbox = await stripeHarness.startSandbox({
    clock,
    plans: [plans.monthly, plans.other],
    coupons: [],
    currency: 'usd',
  });
  const app = await startBillingApp({
    engine,
    harness: stripeHarness,
    sandbox,
    clock,
    billing: { plans: [plans.monthly, plans.other] },
    controller: stripeHarness.webhook.controller,
  });
  return { ...app, sandbox };
}
