import type { Constructor } from '../core/container.js';
import { ConfigurationError } from '../core/errors.js';
import type { Application, ServiceProvider } from '../kernel/application.js';
import { BillingLock } from './billing-lock.js';
import type { BillingEdition } from './config.js';
import { Customers } from './customers/customers.js';
import { allowCardFormSources } from './gateway/content-security.js';
import { type BillingProvider, BillingProviderKey } from './gateway/payment-gateway.js';
import { Invoices } from './invoices/invoices.js';
import { billingMigrations } from './migrations.js';
import { RequestKeys } from './request-keys.js';
import { SubscriptionRepository } from './subscriptions/subscription-repository.js';
import { Subscriptions } from './subscriptions/subscriptions.js';
import { WebhookEvents } from './webhooks/webhook-events.js';

/** Each edition's folder exports this from its `index.ts`. */
export type EditionFactory = (app: Application) => Promise<BillingProvider>;

export interface BillingProviderOptions {
  /** Use this provider (or factory) instead of the configured edition's. */
  provider?: BillingProvider | EditionFactory;
}

/**
 * Wires billing into an application: binds the configured edition's provider. The edition's
 * adapter lives in `gateway/<edition>/index.ts` and exports `createBillingProvider(app)`, so a
 * new edition plugs in without changes here. Its migrations (`src/billing/migrations`) create the
 * subscriptions and webhook-events tables and add the billable columns to `users`.
 *
 * @example
 * const app = await Application.create(config, { providers: [billingProvider()] });
 * app.router.post('/stripe/webhook', [StripeWebhookController, 'handle']); // outside the `web` group
 */
export function billingProvider(options: BillingProviderOptions = {}): ServiceProvider {
  return {
    name: 'billing',
    migrations: [billingMigrations],
    async register(app) {
      const provider = await resolveProvider(app, options.provider);
      app.container.instance(BillingProviderKey, provider);
      allowCardFormSources(app.router.securityHeaders, app.config.billing.edition);
      let closing: Promise<void> | undefined;
      const close = () => (closing ??= Promise.resolve(provider.close?.()));
      closers.set(app, close);
      app.onClose(close);
      // One each, rather than one per call from every Billable model (the lock must be one: it is re-entrant).
      for (const service of [
        BillingLock,
        RequestKeys,
        SubscriptionRepository,
        Customers,
        Subscriptions,
        Invoices,
        WebhookEvents,
      ]) {
        app.container.singleton(service as Constructor);
      }
    },
  };
}

async function resolveProvider(app: Application, given: BillingProviderOptions['provider']) {
  if (given) return typeof given === 'function' ? given(app) : given;
  const edition: BillingEdition = app.config.billing.edition;
  if (edition !== 'stripe' && edition !== 'braintree') {
    throw new ConfigurationError(
      `billing.edition must be "stripe" or "braintree", got "${String(edition)}".`,
    );
  }
  // Resolved at run time so an edition added later needs no change here (and bundlers leave it be).
  const ext = import.meta.url.endsWith('.ts') ? 'ts' : 'js';
  const entry = new URL(`./gateway/${edition}/index.${ext}`, import.meta.url).href;
  const mod = (await import(/* @vite-ignore */ entry)) as { createBillingProvider?: EditionFactory };
  if (typeof mod.createBillingProvider !== 'function') {
    throw new ConfigurationError(
      `src/billing/gateway/${edition}/index.ts does not export createBillingProvider(app).`,
    );
  }
  return mod.createBillingProvider(app);
}

const closers = new WeakMap<Application, () => Promise<void>>();

/** Stops what the provider holds (an embedded sandbox) now; `app.close()` also does, once. */
export async function closeBilling(app: Application): Promise<void> {
  await closers.get(app)?.();
}
