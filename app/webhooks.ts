import { type Application, BraintreeWebhookController, StripeWebhookController } from 'tollgate';

/**
 * The billing provider's webhook receiver (the spec's `POST {base_url}/{provider}/webhook`). It sits
 * outside the `web` group, so no session is started and CSRF does not apply; the controller
 * verifies the provider's signature instead.
 */
export function registerWebhookRoute(app: Application): void {
  const { router } = app;
  router.controllers.registerMany({
    'Billing/StripeWebhookController': StripeWebhookController,
    'Billing/BraintreeWebhookController': BraintreeWebhookController,
  });
  if (app.config.billing.edition === 'braintree') {
    router
      .post('/braintree/webhook', [BraintreeWebhookController, 'handle'])
      .name('cashier.webhook')
      .bodyLimit('webhooks');
  } else {
    router
      .post('/stripe/webhook', [StripeWebhookController, 'handle'])
      .name('cashier.webhook')
      .bodyLimit('webhooks');
  }
}
