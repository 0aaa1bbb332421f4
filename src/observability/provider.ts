import type { Application, ServiceProvider } from '../kernel/application.js';
import { Metrics } from './metrics.js';
import { MetricsController } from './metrics-controller.js';
import { ReadyController } from './ready-controller.js';

/**
 * The operator's view: `GET /ready` (readiness probe) and `GET /metrics` (Prometheus, on only
 * with `METRICS_TOKEN` or `METRICS_PORT`; the port's listener starts with `listenForMetrics(app)`).
 * Register it before the modules whose events it counts.
 */
export function observabilityProvider(): ServiceProvider {
  return {
    name: 'observability',
    register(app: Application) {
      const { token, port } = app.config.observability.metrics;
      if (token || port) {
        const metrics = new Metrics(app);
        app.container.instance(Metrics, metrics);
        app.router.requestObservers.push(metrics.observeRequest);
      }
      app.router.controllers.register(ReadyController).register(MetricsController);
      app.router.get('/ready', ReadyController).name('ready');
      app.router.get('/metrics', MetricsController).name('metrics');
    },
  };
}
