import type { Constructor } from '../core/container.js';
import { ConfigurationError } from '../core/errors.js';
import type { Application, ServiceProvider } from '../kernel/application.js';
import { auditBillingEvents } from './audit-events.js';
import { BillableStores } from './billable-stores.js';
import { BillingLock } from './billing-lock.js';
import { checkCatalogAmounts } from './catalog-amounts.js';
import { countPayments } from './count-payments.js';
import { countWebhooks } from './count-webhooks.js';
import { Customers } from './customers/customers.js';
import { userBillableStore } from './customers/user-store.js';
import { allowCardFormSources } from './gateway/content-security.js';
import { editions } from './gateway/editions.js';
import { type PaymentGateway, PaymentGatewayKey } from './gateway/payment-gateway.js';
import { Invoices } from './invoices/invoices.js';
import { billingMigrations } from './migrations.js';
import { RequestKeys } from './request-keys.js';
import { CheckoutAdoptions } from './subscriptions/checkout-adoption.js';
import { ProviderUpdates } from './subscriptions/provider-updates.js';
import { SubscriptionRepository } from './subscriptions/subscription-repository.js';
import { Subscriptions } from './subscriptions/subscriptions.js';
import { WebhookEvents } from './webhooks/webhook-events.js';
import { WebhookSubscriptions } from './webhooks/webhook-subscriptions.js';

/** Makes a gateway for the application (an edition's `createGateway`, or a test's own). */
export type GatewayFactory = (app: Application) => Promise<PaymentGateway>;

export interface BillingProviderOptions {
  /** Use this gateway (or factory) instead of the configured edition's. */
  gateway?: PaymentGateway | GatewayFactory;
  /** @deprecated The old name of `gateway`. */
  provider?: PaymentGateway | GatewayFactory;
}

/**
 * Wires billing into an application: binds the configured edition's payment gateway
 * (`PaymentGatewayKey`). Editions are listed in `gateway/editions.ts`; each is an `Edition` value
 * in its own folder. Its migrations (`src/billing/migrations`) create the subscriptions and
 * webhook-events tables and add the billable columns to `users`.
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
      const given = options.gateway ?? options.provider;
      const load = Object.hasOwn(editions, app.config.billing.edition)
        ? editions[app.config.billing.edition]
        : undefined;
      if (!load && !given) {
        throw new ConfigurationError(
          `billing.edition must be one of ${Object.keys(editions).join(', ')}, got "${String(app.config.billing.edition)}".`,
        );
      }
      if (load) checkCatalogAmounts(app.config.billing);
      const edition = await load?.();
      const gateway = given
        ? await (typeof given === 'function' ? given(app) : given)
        : await edition!.createGateway(app);
      app.container.instance(PaymentGatewayKey, gateway);
      // Billable models by type: users here; organizations (or the application) register theirs.
      app.container.instance(
        BillableStores,
        new BillableStores().register('user', userBillableStore(app.container)),
      );
      // `billing.subscribe`: the group an application puts on its subscribe routes, for other modules to fill.
      app.router.middleware.appendToGroup('billing.subscribe');
      if (edition) allowCardFormSources(app.router.securityHeaders, edition.cardFormSources);
      let closing: Promise<void> | undefined;
      const close = () => (closing ??= Promise.resolve(gateway.close?.()));
      closers.set(app, close);
      app.onClose(close);
      // One each, rather than one per call from every Billable model (the lock must be one: it is re-entrant).
      for (const service of [
        BillingLock,
        RequestKeys,
        SubscriptionRepository,
        Customers,
        Subscriptions,
        ProviderUpdates,
        CheckoutAdoptions,
        Invoices,
        WebhookEvents,
        WebhookSubscriptions,
      ]) {
        app.container.singleton(service as Constructor);
      }
      auditBillingEvents(app);
      countPayments(app);
      countWebhooks(app);
    },
  };
}

const closers = new WeakMap<Application, () => Promise<void>>();

/** Stops what the gateway holds (an embedded sandbox) now; `app.close()` also does, once. */
export async function closeBilling(app: Application): Promise<void> {
  await closers.get(app)?.();
}
