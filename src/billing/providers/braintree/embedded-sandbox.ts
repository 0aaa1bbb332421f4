import type { Application } from '../../../kernel/application.js';
import { deferredProvider } from '../../deferred-provider.js';
import type { BillingProvider } from '../../provider.js';
import { loadBraintreeSandbox } from '../../sandbox-package.js';
import { BraintreeProvider, braintreeCapabilities } from './braintree-provider.js';
import { sandboxDiscounts, sandboxPlans } from './catalog.js';
import { createBraintreeGateway } from './client.js';

/** How often the embedded sandbox bills renewals and retries that fell due (wall-clock mode). */
const TICK_MS = 10_000;

/**
 * No Braintree credentials configured: run the Braintree sandbox in this process on a free loopback
 * port, seeded with the configured plans and coupons (as discounts, plus `plan-credit`), its signed
 * webhooks sent to `APP_URL/braintree/webhook`, and point the real adapter (the official SDK) at it
 * through the SDK's own environment settings. The package is loaded at boot (a missing one fails
 * there, with what to do); the server starts on the first billing call.
 */
export async function embeddedSandboxProvider(app: Application): Promise<BillingProvider> {
  await loadBraintreeSandbox();
  app.logger.warn(
    'No Braintree credentials configured (BRAINTREE_MERCHANT_ID, BRAINTREE_PUBLIC_KEY, BRAINTREE_PRIVATE_KEY): billing will use the embedded Braintree sandbox',
  );
  return deferredProvider(braintreeCapabilities, () => startEmbeddedSandbox(app));
}

export async function startEmbeddedSandbox(app: Application): Promise<BraintreeProvider> {
  const { createBraintreeSandbox } = await loadBraintreeSandbox();
  const { currency, plans, coupons } = app.config.billing;
  const webhookUrl = new URL('/braintree/webhook', app.config.app.url).toString();
  const sandbox = createBraintreeSandbox({
    clock: app.clock,
    plans: sandboxPlans(plans, currency),
    discounts: sandboxDiscounts(coupons, currency),
    webhook: { url: webhookUrl },
  });
  const server = await sandbox.listen(0, '127.0.0.1');
  const timer = setInterval(() => void sandbox.runDue().catch(() => undefined), TICK_MS);
  timer.unref();
  app.logger.warn({ sandbox: server.url, webhook: webhookUrl }, 'Embedded Braintree sandbox started');
  const config = sandbox.gatewayConfig(server);
  return new BraintreeProvider({
    gateway: createBraintreeGateway({ ...config, environment: 'sandbox', apiBase: server.url }),
    clock: app.clock,
    coupons,
    currency,
    onClose: async () => {
      clearInterval(timer);
      await server.close();
    },
  });
}
