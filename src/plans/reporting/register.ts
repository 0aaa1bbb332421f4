import { BillableStores } from '../../billing/billable-stores.js';
import { BillingLock } from '../../billing/billing-lock.js';
import { PaymentGatewayKey } from '../../billing/gateway/payment-gateway.js';
import { SubscriptionRepository } from '../../billing/subscriptions/subscription-repository.js';
import type { Application } from '../../kernel/application.js';
import { UsageLedger } from '../metering/usage-ledger.js';
import type { PlanCatalog } from '../plan.js';
import { PlanResolver } from '../plan-resolver.js';
import { ReportedUsageStore } from './reported-usage.js';
import { UsageReporter } from './usage-reporter.js';

/** Binds `UsageReporter` when billing is set up: the provider side of metered plans. */
export function registerUsageReporter(app: Application, catalog: PlanCatalog): void {
  const { container } = app;
  if (!container.has(PaymentGatewayKey)) return;
  container.singleton(
    UsageReporter,
    (c) =>
      new UsageReporter({
        gateway: c.make(PaymentGatewayKey),
        catalog,
        resolver: c.make(PlanResolver),
        subscriptions: c.make(SubscriptionRepository),
        owners: c.make(BillableStores),
        lock: c.make(BillingLock),
        store: new ReportedUsageStore(app.db, app.clock),
        clock: app.clock,
        subscription: app.config.plans.subscription,
        ledger: c.make(UsageLedger),
      }),
  );
}
