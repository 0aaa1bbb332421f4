import { BillingLock } from '../../billing/billing-lock.js';
import { BillableStores } from '../../billing/index.js';
import { LoggerKey } from '../../core/keys.js';
import type { Application } from '../../kernel/application.js';
import { MemberAdded, MemberRemoved } from '../events.js';
import { Organizations } from '../organizations.js';
import { organizationBillableStore } from './billable-organization.js';
import { OrganizationBilling } from './organization-billing.js';
import { OrganizationBillingController } from './organization-billing-controller.js';
import { type SeatOptions, SeatSync } from './seat-sync.js';

/**
 * Billing on the organization, when `billingProvider()` is registered before organizations: the
 * `organization` billable store, the billing pages, seat sync on joins and leaves.
 */
export function registerOrganizationBilling(app: Application, seats: SeatOptions | undefined): boolean {
  const { container, router, events, db } = app;
  if (!container.has(BillableStores)) return false;
  const stores = container.make(BillableStores);
  stores.register('organization', organizationBillableStore(container, db));
  const seatSync = new SeatSync(db, stores, seats ?? { plans: [] }, app.clock, container.make(BillingLock));
  container
    .instance(SeatSync, seatSync)
    .singleton(
      OrganizationBilling,
      (c) => new OrganizationBilling({ db, organizations: c.make(Organizations), stores }),
    );
  // After the membership change committed; one the provider fails stays pending, and
  // `scheduleSeatSyncRetries` (or the next change) sets the seats.
  const sync = async (organizationId: number) => {
    await seatSync.sync(organizationId).catch((error: unknown) => {
      container.make(LoggerKey).warn({ err: error, organizationId }, 'Seat sync failed; left pending');
    });
  };
  events.listen(MemberAdded, (e) => sync(e.organizationId));
  events.listen(MemberRemoved, (e) => sync(e.organizationId));

  router.controllers.register(OrganizationBillingController, 'Organizations/OrganizationBillingController');
  router.group({ prefix: '/organizations/:organization', middleware: ['web', 'auth'] }, (org) => {
    org.get('/billing', [OrganizationBillingController, 'show']).name('organizations.billing');
    org
      .post('/billing/subscribe', [OrganizationBillingController, 'subscribe'])
      .name('organizations.billing.subscribe');
    org.post('/billing/card', [OrganizationBillingController, 'card']).name('organizations.billing.card');
    org
      .post('/billing/details', [OrganizationBillingController, 'details'])
      .name('organizations.billing.details');
    org
      .post('/billing/cancel', [OrganizationBillingController, 'cancel'])
      .name('organizations.billing.cancel');
    org.get('/invoices/:invoice', [OrganizationBillingController, 'invoice']).name('organizations.invoice');
  });
  return true;
}
