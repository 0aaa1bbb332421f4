import type { Application } from '../../kernel/application.js';
import { PlanResolver, Plans, UsageLedger } from '../../plans/index.js';
import { OrganizationPageLinks } from '../page-links.js';
import { OrganizationUsage } from './organization-usage.js';
import { OrganizationUsageController } from './organization-usage-controller.js';

/**
 * The usage page, when `plansProvider()` is registered before organizations (plans count an
 * organization's calls against its own plan: docs/api-plans.md#organizations).
 */
export function registerOrganizationUsage(app: Application): boolean {
  const { container, router, db, clock } = app;
  if (!container.has(Plans)) return false;
  container.singleton(
    OrganizationUsage,
    (c) => new OrganizationUsage({ db, resolver: c.make(PlanResolver), ledger: c.make(UsageLedger), clock }),
  );
  router.controllers.register(OrganizationUsageController, 'Organizations/OrganizationUsageController');
  router
    .get('/organizations/:organization/usage', [OrganizationUsageController, 'show'])
    .name('organizations.usage')
    .middleware('web', 'auth');
  container.make(OrganizationPageLinks).add({ label: 'Usage', path: 'usage', permission: 'usage.view' });
  return true;
}
