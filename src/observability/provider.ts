import type { Application, ServiceProvider } from '../kernel/application.js';
import { AuditController } from './audit/audit-controller.js';
import { AuditLog } from './audit/audit-log.js';
import { auditMigrations } from './audit/migrations.js';
import { Metrics } from './metrics.js';
import { MetricsController } from './metrics-controller.js';
import { ReadyController } from './ready-controller.js';

/**
 * The operator's view: `GET /ready` (readiness probe), `GET /metrics` (Prometheus, on only
 * with `METRICS_TOKEN` or `METRICS_PORT`; the port's listener starts with `listenForMetrics(app)`)
 * and the audit log (`AuditLog`, which the modules above record their events to; `GET
 * /audit/events` with `AUDIT_TOKEN`). Register it before the modules whose events it counts.
 */
export function observabilityProvider(): ServiceProvider {
  return {
    name: 'observability',
    migrations: [auditMigrations],
    register(app: Application) {
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
