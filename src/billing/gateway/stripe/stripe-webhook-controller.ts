import { WebhookController } from '../../webhooks/webhook-controller.js';
import type { WebhookEvent } from '../payment-gateway.js';

/**
 * Stripe's receiver (`POST /stripe/webhook`). The shared receiver applies `customer.subscription.*`
 * state to the local row before any handler runs (`webhook-sync.ts`); Stripe deletes a
 * subscription after its last failed retry (https://docs.stripe.com/billing/subscriptions/overview#settings),
 * which ends the local one. The handler below stays for subclasses that call it (a no-op by then).
 * Extend this class to handle more events.
 *
 * @example
 * class MyWebhooks extends StripeWebhookController {
 *   async handleInvoicePaymentSucceeded(payload: Stripe.Event) { … }
 * }
 * app.router.post('/stripe/webhook', [MyWebhooks, 'handle']);
 */
export class StripeWebhookController extends WebhookController {
  async handleCustomerSubscriptionDeleted(_payload: unknown, event: WebhookEvent): Promise<void> {
    if (event.subscriptionId) await this.cancelSubscription(event.subscriptionId);
  }
}
