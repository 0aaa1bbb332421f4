import { randomBytes } from 'node:crypto';
import type { Application } from '../../../kernel/application.js';
import { IssuedInvoices } from '../../invoices/issued-invoices.js';
import { loadBraintreeSandbox } from '../../sandbox-package.js';
import { deferredGateway } from '../deferred-gateway.js';
import { meteredSeeds } from '../metered-seeds.js';
import type { PaymentGateway } from '../payment-gateway.js';
import { BraintreePaymentGateway } from './braintree-gateway.js';
import { braintreeCapabilities } from './capabilities.js';
import { sandboxAddOns, sandboxDiscounts, sandboxPlans } from './catalog.js';
import { createBraintreeGateway } from './client.js';

/** How often the embedded sandbox bills renewals and retries that fell due (wall-clock mode). */
const TICK_MS = 10_000;

/** Said once at boot, loudly: an install that meant to bill for real must notice. */
export const BRAINTREE_SANDBOX_WARNING =
  'BILLING RUNS ON THE EMBEDDED BRAINTREE SANDBOX: no Braintree credentials are configured (BRAINTREE_MERCHANT_ID, BRAINTREE_PUBLIC_KEY, BRAINTREE_PRIVATE_KEY), so nothing is charged; its keys are random for this process';

/**
 * Keys known only to this process. The sandbox's own defaults are published, so webhooks signed
 * with them (a forged `subscription_canceled`, say) would pass the receiver's signature check.
 */
function randomCredentials() {
  return {
    merchantId: `sandbox_${randomBytes(8).toString('hex')}`,
    publicKey: randomBytes(16).toString('hex'),
    privateKey: randomBytes(32).toString('hex'),
  };
}

/**
 * No Braintree credentials configured: run the Braintree sandbox in this process on a free loopback
 * port, seeded with the configured plans, coupons (as discounts, plus `plan-credit`), metered prices (as add-ons), its
 * webhooks signed with credentials made for this process and sent to `APP_URL/braintree/webhook`,
 * and point the real adapter (the official SDK) at it through the SDK's own environment settings.
 * The package is loaded at boot (a missing one fails there, with what to do), which also logs one
 * warning; the server starts on the first billing call.
 */
export async function embeddedSandboxGateway(app: Application): Promise<PaymentGateway> {
  await loadBraintreeSandbox();
  app.logger.warn(BRAINTREE_SANDBOX_WARNING);
  return deferredGateway(braintreeCapabilities, () => startEmbeddedSandbox(app));
}

export async function startEmbeddedSandbox(app: Application): Promise<BraintreePaymentGateway> {
  const { createBraintreeSandbox } = await loadBraintreeSandbox();
  const { currency, plans, coupons } = app.config.billing;
  const webhookUrl = new URL('/braintree/webhook', app.config.app.url).toString();
  const sandbox = createBraintreeSandbox({
    clock: app.clock,
    plans: sandboxPlans(plans, currency),
    discounts: sandboxDiscounts(coupons, currency),
    addOns: sandboxAddOns(meteredSeeds(app.config), currency),
    currencyIsoCode: currency.toUpperCase(),
    webhook: { url: webhookUrl },
    ...randomCredentials(),
  });
  const server = await sandbox.listen(0, '127.0.0.1');
  const timer = setInterval(() => void sandbox.runDue().catch(() => undefined), TICK_MS);
  timer.unref();
  app.logger.info({ sandbox: server.url, webhook: webhookUrl }, 'Embedded Braintree sandbox started');
  const config = sandbox.gatewayConfig(server);
  return new BraintreePaymentGateway({
    gateway: createBraintreeGateway({ ...config, environment: 'sandbox', apiBase: server.url }),
    clock: app.clock,
    coupons,
    currency,
    history: new IssuedInvoices(app.db, 'braintree'),
    logger: app.logger,
    challengePage: new URL('/_sandbox/three_d_secure', server.url).toString(),
    onClose: async () => {
      clearInterval(timer);
      await server.close();
    },
  });
}
