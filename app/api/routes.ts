import type { Router } from 'tollgate/http';
import { OrdersController } from './orders-controller.js';
import { UserController } from './user-controller.js';

/**
 * The reference API (issue 5, item 6), in the `api` group behind `auth:api`. Registered
 * controllers keep the routes cacheable (`tollgate route:cache`).
 */
export function registerApiRoutes(router: Router): void {
  router.controllers.registerMany({
    'Api/UserController': UserController,
    'Api/OrdersController': OrdersController,
  });
  router.group({ prefix: '/api', as: 'api.', middleware: ['api', 'auth:api'] }, (r) => {
    r.get('/user', [UserController, 'show']).name('user');
    r.get('/orders', [OrdersController, 'index']).name('orders.index').middleware('scopes:check-status');
    r.post('/orders', [OrdersController, 'store']).name('orders.store').middleware('scopes:place-orders');
    r.get('/orders/{order}/status', [OrdersController, 'status'])
      .name('orders.status')
      .middleware('scope:check-status,place-orders');
  });
}
