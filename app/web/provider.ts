import type { ServiceProvider } from 'tollgate';
import { ApiKeysPageController } from './controllers/api-keys-controller.js';
import { BillingController } from './controllers/billing-controller.js';
import { ClientsPageController } from './controllers/clients-page-controller.js';
import { DashboardController } from './controllers/dashboard-controller.js';
import { ServiceInvoiceController } from './controllers/invoice-controller.js';
import { LandingController } from './controllers/landing-controller.js';
import { PaymentController } from './controllers/payment-controller.js';
import { PersonalTokensPageController } from './controllers/personal-tokens-controller.js';
import { ScriptController } from './controllers/script-controller.js';
import { UsageController } from './controllers/usage-controller.js';

const INVOICE_PATH = '/user/invoice/{invoice}';

/**
 * The pages people use: the landing page, the docs, the dashboard (OAuth clients, tokens, the
 * "try the API" panel, billing) and the invoice download. Register after `authProvider()`,
 * `oauthProvider()` and `billingProvider()`; its `dashboard` route replaces the auth placeholder.
 */
export function webProvider(): ServiceProvider {
  return {
    name: 'app.web',
    register(app) {
      const { router } = app;
      // Registered controllers keep these routes cacheable (`tollgate route:cache`).
      router.controllers.registerMany({
        'Web/LandingController': LandingController,
        'Web/DashboardController': DashboardController,
        'Web/ApiKeysPageController': ApiKeysPageController,
        'Web/PersonalTokensPageController': PersonalTokensPageController,
        'Web/ClientsPageController': ClientsPageController,
        'Web/BillingController': BillingController,
        'Web/ScriptController': ScriptController,
        'Web/InvoiceController': ServiceInvoiceController,
        'Web/PaymentController': PaymentController,
        'Web/UsageController': UsageController,
      });
      router.get('/assets/app.js', [ScriptController, 'show']).name('assets.js');

      router.group({ middleware: ['web'] }, (r) => {
        r.get('/', [LandingController, 'show']).name('home');
        r.get('/docs', [LandingController, 'docs']).name('docs');
        r.get('/docs/{page}', [LandingController, 'doc']).name('docs.show');
      });

      router.group({ middleware: ['web', 'auth'] }, (r) => {
        r.get('/dashboard', [DashboardController, 'overview']).name('dashboard');
        r.get('/dashboard/clients', [ClientsPageController, 'show']).name('dashboard.clients');
        r.post('/dashboard/clients', [ClientsPageController, 'store']).name('dashboard.clients.store');
        r.get('/dashboard/clients/{client}/edit', [ClientsPageController, 'edit']).name(
          'dashboard.clients.edit',
        );
        r.put('/dashboard/clients/{client}', [ClientsPageController, 'update']).name(
          'dashboard.clients.update',
        );
        r.delete('/dashboard/clients/{client}', [ClientsPageController, 'destroy']).name(
          'dashboard.clients.destroy',
        );
        r.post('/dashboard/clients/{client}/secret', [ClientsPageController, 'rotateSecret']).name(
          'dashboard.clients.secret',
        );
        r.get('/dashboard/tokens', [ApiKeysPageController, 'show']).name('dashboard.tokens');
        r.post('/dashboard/api-keys', [ApiKeysPageController, 'store']).name('dashboard.api-keys.store');
        r.delete('/dashboard/api-keys/{key}', [ApiKeysPageController, 'destroy']).name(
          'dashboard.api-keys.destroy',
        );
        r.post('/dashboard/personal-tokens', [PersonalTokensPageController, 'storeToken']).name(
          'dashboard.personal-tokens.store',
        );
        r.post('/dashboard/personal-tokens/{token}/regenerate', [
          PersonalTokensPageController,
          'regenerateToken',
        ]).name('dashboard.personal-tokens.regenerate');
        r.delete('/dashboard/personal-tokens/{token}', [PersonalTokensPageController, 'destroyToken']).name(
          'dashboard.personal-tokens.destroy',
        );
        r.delete('/dashboard/authorized-apps/{client}', [ApiKeysPageController, 'revokeApp']).name(
          'dashboard.authorized-apps.destroy',
        );
        r.get('/dashboard/usage', [UsageController, 'show']).name('dashboard.usage');
        r.get('/dashboard/billing', [BillingController, 'show']).name('dashboard.billing');
        r.post('/dashboard/billing/subscribe', [BillingController, 'subscribe'])
          .name('billing.subscribe')
          .middleware('billing.subscribe');
        r.post('/dashboard/billing/checkout', [BillingController, 'checkout'])
          .name('billing.checkout')
          .middleware('billing.subscribe');
        r.get('/dashboard/billing/checkout/success', [BillingController, 'checkoutSuccess']).name(
          'billing.checkout.success',
        );
        r.post('/dashboard/billing/portal', [BillingController, 'portal']).name('billing.portal');
        r.post('/dashboard/billing/swap', [BillingController, 'swap']).name('billing.swap');
        r.post('/dashboard/billing/cancel', [BillingController, 'cancel']).name('billing.cancel');
        r.post('/dashboard/billing/resume', [BillingController, 'resume']).name('billing.resume');
        r.post('/dashboard/billing/card', [BillingController, 'updateCard']).name('billing.card');
        r.get('/dashboard/billing/card/setup', [BillingController, 'setupCard']).name('billing.card.setup');
        r.get('/dashboard/billing/card/setup/return', [BillingController, 'setupCardReturn']).name(
          'billing.card.setup.return',
        );
        // The payment confirmation page (3-D Secure), linked from IncompletePayment and the banner.
        r.get('/billing/payment/{id}', [PaymentController, 'show']).name('billing.payment');
        // The billing module ships the controller; the application declares the route (once).
        if (!router.routes.some((route) => route.path === INVOICE_PATH)) {
          r.get(INVOICE_PATH, [ServiceInvoiceController, 'show']).name('invoice.download');
        }
      });
    },
  };
}
