/**
 * `tollgate`: what an application needs to start — configuration, the application kernel, the
 * server, and the modules' service providers. Each module's own entry point (`tollgate/oauth`,
 * `tollgate/billing`, `tollgate/auth`, `tollgate/http`, `tollgate/views`, `tollgate/database`,
 * `tollgate/testing`) has the rest.
 */

export { accountsProvider } from './accounts/provider.js';
export { csrfToken, currentUser } from './auth/context.js';
export { authProvider } from './auth/provider.js';
export { tableUsers } from './auth/table-users.js';
export { User } from './auth/user.js';
export { UserModelKey, Users } from './auth/users.js';
export { Billable } from './billing/billable.js';
export { BraintreeWebhookController } from './billing/gateway/braintree/braintree-webhook-controller.js';
export { StripeWebhookController } from './billing/gateway/stripe/stripe-webhook-controller.js';
export { billingProvider } from './billing/service-provider.js';
export { loadEnvFile } from './config/env-file.js';
export { configFromEnv, configFromFile, defineConfig, loadConfig } from './config/index.js';
export type { Clock } from './core/clock.js';
export { SystemClock } from './core/clock.js';
export type { DeepPartial, TollgateConfig } from './core/config.js';
export type { Binding, Constructor, Injectable } from './core/container.js';
export { Container, InjectionKey } from './core/container.js';
export { ConfigurationError, HttpError, ValidationError } from './core/errors.js';
export { EventDispatcher } from './core/events.js';
export { ClockKey, ConfigKey, EventsKey, LoggerKey } from './core/keys.js';
export type { Logger } from './core/logger.js';
export { createLogger } from './core/logger.js';
export { laravelMessages, validate } from './core/validation.js';
export { AppEncryptionKey } from './kernel/app-key.js';
export type { ApplicationOptions, ServiceProvider } from './kernel/application.js';
export { Application } from './kernel/application.js';
export type { RunningServer } from './kernel/server.js';
export { closeOnSignals, listen } from './kernel/server.js';
export { Mailer } from './mail/mailer.js';
export { mailProvider } from './mail/provider.js';
export { installOAuth } from './oauth/install.js';
export { HasApiTokens } from './oauth/personal/has-api-tokens.js';
export { oauthProvider } from './oauth/provider.js';
export { scheduleTokenPurge } from './oauth/tokens/token-purge-schedule.js';
export type { AuditEntry } from './observability/audit/audit-log.js';
export { AuditLog } from './observability/audit/audit-log.js';
export { scheduleAuditPurge } from './observability/audit/audit-purge.js';
export type { ObservabilityConfig } from './observability/config.js';
export { Metrics } from './observability/metrics.js';
export { listenForMetrics } from './observability/metrics-server.js';
export { observabilityProvider } from './observability/provider.js';
export { startTracing, stopTracing } from './observability/tracing.js';
export { organizationsProvider } from './organizations/provider.js';
export type {
  MeteringConfig,
  PlanEntitlements,
  PlanMeteredPrice,
  PlanRateLimit,
  PlansConfig,
  PlanWindow,
} from './plans/config.js';
export { meter } from './plans/metering/metered.js';
export type { UsagePoint, UsageRange, UsageShare } from './plans/metering/usage-ledger.js';
export { UsageLedger } from './plans/metering/usage-ledger.js';
export { UsageMeter } from './plans/metering/usage-meter.js';
export type { Plan } from './plans/plan.js';
export type { PlanHolderType, PlanStanding } from './plans/plan-resolver.js';
export { PlanResolver } from './plans/plan-resolver.js';
export { Plans, plansProvider } from './plans/provider.js';
export type { UsageReportLine, UsageReportOptions } from './plans/reporting/usage-reporter.js';
export { UsageReporter } from './plans/reporting/usage-reporter.js';
export {
  reportUsageOnce,
  scheduleUsageReports,
  type UsageScheduleOptions,
} from './plans/reporting/usage-schedule.js';
export type { RateLimitPolicy } from './rate-limits/policy.js';
export { RateLimits } from './rate-limits/rate-limits.js';
export { signinProvider } from './signin/provider.js';
