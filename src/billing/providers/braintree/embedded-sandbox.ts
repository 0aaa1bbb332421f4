import type { Application } from '../../../kernel/application.js';
import { deferredProvider } from '../../deferred-provider.js';
import type { BillingProvider } from '../../provider.js';
import { BraintreeProvider, braintreeCapabilities } from './braintree-provider.js';
import { sandboxDiscounts, sandboxPlans } from './catalog.js';
import { createBraintreeGateway } from './client.js';

/** How often the embedded sandbox bills renewals and retries that fell due (wall-clock mode). */
const TICK_MS = 10_000;

/**
 * No Braintree credentials configured: run the Braintree sandbox in this process on a free loopback
 * port, seeded with the configured plans and coupons (as discounts, plus `plan-credit`), its signed
 * webhooks sent to `APP_URL/braintree/webhook`, and point the real adapter (the official SDK) at it
 * through the SDK's own environment settings. The server starts on the first billing call.
 */
export function embeddedSandboxProvider(app: Application): BillingProvider {
  app.logger.warn(
    'No Braintree credentials configured (BRAINTREE_MERCHANT_ID, BRAINTREE_PUBLIC_KEY, BRAINTREE_PRIVATE_KEY): billing will use the embedded Braintree sandbox',
  );
  return deferredProvider(braintreeCapabilities, () => startEmbeddedSandbox(app));
}

export async function startEmbeddedSandbox(app: Application): Promise<BraintreeProvider> {
  // Loaded only here, so an install with real credentials never loads the sandbox.
  const { createBraintreeSandbox } = await import('../../../sandbox/braintree/index.js');
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
