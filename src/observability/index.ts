/**
 * `tollgate/observability`: the operator's view — readiness, Prometheus metrics, the audit log
 * (docs/operations.md).
 */

export type { AuditEntry } from './audit/audit-log.js';
export { AuditLog } from './audit/audit-log.js';
export { purgeAuditEvents, purgeAuditOnce, scheduleAuditPurge } from './audit/audit-purge.js';
export type { AuditEvent, AuditFilter, AuditPage } from './audit/audit-reader.js';
export { AuditReader } from './audit/audit-reader.js';

export type { ObservabilityConfig } from './config.js';
export { observabilityConfig } from './config.js';
export { Metrics } from './metrics.js';
export { listenForMetrics } from './metrics-server.js';
export { observabilityProvider } from './provider.js';
export type { Tracing, TracingOptions } from './tracing.js';
export { otlpConfigured, startTracing, stopTracing, tracingEnabled } from './tracing.js';
