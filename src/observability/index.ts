/**
 * `tollgate/observability`: the operator's view — readiness, Prometheus metrics (docs/operations.md).
 */

export type { ObservabilityConfig } from './config.js';
export { observabilityConfig } from './config.js';
export { Metrics } from './metrics.js';
export { listenForMetrics } from './metrics-server.js';
export { observabilityProvider } from './provider.js';
