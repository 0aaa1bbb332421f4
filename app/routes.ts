import type { ServiceProvider } from '../src/foundation/application.js';

/** The reference service's own routes. */
export const routes: ServiceProvider = {
  name: 'app.routes',
  register(app) {
    app.router.get('/health', (c) => c.json({ status: 'ok' })).name('health');
  },
};
