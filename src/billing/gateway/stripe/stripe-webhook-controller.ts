import { WebhookController } from '../../webhooks/webhook-controller.js';
import type { WebhookEvent } from '../payment-gateway.js';

/**
 * Stripe's receiver (`POST /stripe/webhook`). Stripe deletes a subscription after its last failed
 * retry (https://docs.stripe.com/billing/subscriptions/overview#settings), so the default handler
 * ends the local one; extend this class to handle more events.
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
