import { randomBytes } from 'node:crypto';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import type { Application } from '../../../kernel/application.js';
import { loadStripeSandbox } from '../../sandbox-package.js';
import { deferredGateway } from '../deferred-gateway.js';
import { meteredSeeds } from '../metered-seeds.js';
import type { PaymentGateway } from '../payment-gateway.js';
import { stripeCapabilities } from './capabilities.js';
import { sandboxCoupons, sandboxMeteredPlans, sandboxPlans } from './catalog.js';
import { StripePaymentGateway } from './stripe-gateway.js';

/** How often the embedded sandbox bills renewals and retries that fell due (wall-clock mode). */
const TICK_MS = 10_000;

/** Said once at boot, loudly: an install that meant to bill for real must notice. */
export const STRIPE_SANDBOX_WARNING =
  'BILLING RUNS ON THE EMBEDDED STRIPE SANDBOX: no Stripe secret is configured (STRIPE_SECRET), so nothing is charged; its webhook secret is random for this process';

/**
 * No Stripe secret configured: run the Stripe sandbox in this process on a free loopback port,
 * seeded with the configured plans, coupons and metered prices (one Billing Meter per meter name), its webhooks signed with a fresh secret and sent
 * to `APP_URL/stripe/webhook`, and point the real adapter (the official SDK) at it. The package is
 * loaded at boot (a missing one fails there, with what to do), which also logs one warning; the
 * server starts on the first billing call, so CLI commands that never bill open no port.
 */
export async function embeddedSandboxGateway(app: Application): Promise<PaymentGateway> {
  await loadStripeSandbox();
  app.logger.warn(STRIPE_SANDBOX_WARNING);
  return deferredGateway(stripeCapabilities, () => startEmbeddedSandbox(app));
}

export async function startEmbeddedSandbox(app: Application): Promise<StripePaymentGateway> {
  const { createStripeSandbox } = await loadStripeSandbox();
  const { currency, plans, coupons } = app.config.billing;
  const secret = `whsec_${randomBytes(24).toString('hex')}`;
  const webhookUrl = new URL('/stripe/webhook', app.config.app.url).toString();
  const sandbox = createStripeSandbox({
    clock: app.clock,
    plans: [...sandboxPlans(plans, currency), ...sandboxMeteredPlans(meteredSeeds(app.config), currency)],
    coupons: sandboxCoupons(coupons, currency),
    webhook: { url: webhookUrl, secret },
  });
  const server = await new Promise<Server>((resolve) => {
    const s = serve({ fetch: sandbox.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(s as Server));
  });
  // Neither the server nor its timer keeps the process alive: the application decides when to exit.
  server.unref();
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const timer = setInterval(() => void sandbox.runDue().catch(() => undefined), TICK_MS);
  timer.unref();
  app.logger.info({ sandbox: url, webhook: webhookUrl }, 'Embedded Stripe sandbox started');
  return new StripePaymentGateway({
    secret: 'sk_test_tollgate_sandbox',
    apiBase: url,
    webhookSecret: secret,
    onClose: async () => {
      clearInterval(timer);
      server.closeAllConnections();
      await new Promise<void>((done) => server.close(() => done()));
    },
  });
}
