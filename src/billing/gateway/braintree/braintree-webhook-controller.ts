import { WebhookController } from '../../webhooks/webhook-controller.js';
import type { WebhookEvent } from '../payment-gateway.js';

/**
 * Braintree's receiver (`POST /braintree/webhook`): `bt_signature`/`bt_payload` verified by the SDK's
 * `webhookNotification.parse`, then `handle` + CamelCase(kind) with the parsed notification
 * (`dispute_opened` → `handleDisputeOpened(notification)`). Braintree cancels a subscription after its
 * last failed retry (`subscription_canceled`) and expires one whose billing cycles ran out
 * (`subscription_expired`, how a cancel at period end finishes); both end the local subscription
 * by the shared rule, which leaves a subscription already cancelled here to its grace period (a
 * `cancel()` in a trial cancels at Braintree at once, and its notice may arrive after it).
 *
 * @example
 * class MyWebhooks extends BraintreeWebhookController {
 *   async handleDisputeOpened(notification: braintree.WebhookNotification) { … }
 * }
 * app.router.post('/braintree/webhook', [MyWebhooks, 'handle']);
 */
export class BraintreeWebhookController extends WebhookController {
  async handleSubscriptionCanceled(_notification: unknown, event: WebhookEvent): Promise<void> {
    if (event.subscriptionId) await this.cancelSubscription(event.subscriptionId);
  }

  async handleSubscriptionExpired(_notification: unknown, event: WebhookEvent): Promise<void> {
    if (event.subscriptionId) await this.cancelSubscription(event.subscriptionId);
  }
}
