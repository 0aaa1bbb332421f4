/**
 * Plans with entitlements — allowed scopes, a per-user rate limit, features — enforced by
 * `auth:api`, `plan:a,b` and `entitled:feature`. The root entry point (`tollgate`) exports these.
 */

export type {
  MeteringConfig,
  PlanEntitlements,
  PlanMeteredPrice,
  PlanRateLimit,
  PlansConfig,
  PlanWindow,
} from './config.js';
export { plansConfig } from './config.js';
export { meter } from './metering/metered.js';
export type { UsagePoint, UsageRange, UsageShare } from './metering/usage-ledger.js';
export { UsageLedger } from './metering/usage-ledger.js';
export { UsageMeter } from './metering/usage-meter.js';
export type { Plan, PlanCatalog } from './plan.js';
export type { PlanHolderType, PlanStanding } from './plan-resolver.js';
export { PlanResolver } from './plan-resolver.js';
export { Plans, plansProvider } from './provider.js';
export type { UsageReportLine, UsageReportOptions } from './reporting/usage-reporter.js';
export { UsageReporter } from './reporting/usage-reporter.js';
export {
  reportUsageOnce,
  scheduleUsageReports,
  type UsageScheduleOptions,
} from './reporting/usage-schedule.js';
