import type { Application, ServiceProvider } from '../kernel/application.js';
import { AuditController } from './audit/audit-controller.js';
import { AuditLog } from './audit/audit-log.js';
import { auditMigrations } from './audit/migrations.js';
import { Metrics } from './metrics.js';
import { MetricsController } from './metrics-controller.js';
import { ReadyController } from './ready-controller.js';
import { startTracing } from './tracing.js';

/**
 * The operator's view: `GET /ready` (readiness probe), `GET /metrics` (Prometheus, on only
 * with `METRICS_TOKEN` or `METRICS_PORT`; the port's listener starts with `listenForMetrics(app)`)
 * and the audit log (`AuditLog`, which the modules above record their events to; `GET
 * /audit/events` with `AUDIT_TOKEN`), and traces exported by OTLP when `OTEL_EXPORTER_OTLP_ENDPOINT`
 * is set (`startTracing`). Register it before the modules whose events it counts and spans it records.
 */
export function observabilityProvider(): ServiceProvider {
  return {
    name: 'observability',
    migrations: [auditMigrations],
    async register(app: Application) {
      const tracing = await startTracing();
      if (tracing) app.onClose(() => tracing.flush());
      const { token, port } = app.config.observability.metrics;
      if (token || port) {
        const metrics = new Metrics(app);
        app.container.instance(Metrics, metrics);
        app.router.requestObservers.push(metrics.observeRequest);
      }
      const audit = new AuditLog(app.db, app.clock, app.logger);
      app.container.instance(AuditLog, audit);
      app.onClose(() => audit.flush());
      app.router.controllers.register(ReadyController).register(MetricsController).register(AuditController);
      app.router.get('/ready', ReadyController).name('ready');
      app.router.get('/metrics', MetricsController).name('metrics');
      app.router.get('/audit/events', [AuditController, 'index']).name('audit.events');
    },
  };
}
