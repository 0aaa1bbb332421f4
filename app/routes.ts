import type { ServiceProvider } from 'tollgate';
import { OrderBook } from './api/orders.js';
import { registerApiRoutes } from './api/routes.js';
import { HealthController } from './health-controller.js';
import { registerWebhookRoute } from './webhooks.js';

/** The reference service's own routes. */
export const routes: ServiceProvider = {
  name: 'app.routes',
  register(app) {
    app.router.controllers.register(HealthController);
    app.router.get('/health', HealthController).name('health');
    registerWebhookRoute(app);
    // The frontend's app_token cookie (Passport's CreateFreshApiToken), after sessions and CSRF.
    app.router.middleware.appendToGroup('web', 'fresh-api-token');
    app.container.singleton(OrderBook);
    registerApiRoutes(app.router);
  },
};
