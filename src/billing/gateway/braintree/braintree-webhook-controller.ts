import type { Clock } from '../../../core/clock.js';
import type { Binding } from '../../../core/container.js';
import { ClockKey } from '../../../core/keys.js';
import type { Logger } from '../../../core/logger.js';
import { SubscriptionRepository } from '../../subscriptions/subscription-repository.js';
import type { Subscriptions } from '../../subscriptions/subscriptions.js';
import { WebhookController } from '../../webhooks/webhook-controller.js';
import type { WebhookEvents } from '../../webhooks/webhook-events.js';
import type { PaymentGateway, WebhookEvent } from '../payment-gateway.js';

/**
 * Braintree's receiver (`POST /braintree/webhook`): `bt_signature`/`bt_payload` verified by the SDK's
 * `webhookNotification.parse`, then `handle` + CamelCase(kind) with the parsed notification
 * (`dispute_opened` → `handleDisputeOpened(notification)`). Braintree cancels a subscription after its
 * last failed retry (`subscription_canceled`) and expires one whose billing cycles ran out
 * (`subscription_expired`, how a cancel at period end finishes); both end the local subscription.
 *
 * @example
 * class MyWebhooks extends BraintreeWebhookController {
 *   async handleDisputeOpened(notification: braintree.WebhookNotification) { … }
 * }
 * app.router.post('/braintree/webhook', [MyWebhooks, 'handle']);
 */
export class BraintreeWebhookController extends WebhookController {
  static override inject: readonly Binding[] = [
    ...WebhookController.inject,
    SubscriptionRepository,
    ClockKey,
  ];

  constructor(
    gateway: PaymentGateway,
    events: WebhookEvents,
    subscriptions: Subscriptions,
    logger: Logger,
    // Optional so the class stays a drop-in `typeof WebhookController` for routes and harnesses.
    protected readonly repository?: SubscriptionRepository,
    protected readonly clock?: Clock,
  ) {
    super(gateway, events, subscriptions, logger);
  }

  async handleSubscriptionCanceled(_notification: unknown, event: WebhookEvent): Promise<void> {
    if (event.subscriptionId) await this.endSubscription(event.subscriptionId);
  }

  async handleSubscriptionExpired(_notification: unknown, event: WebhookEvent): Promise<void> {
    if (event.subscriptionId) await this.endSubscription(event.subscriptionId);
  }

  /**
   * Ends the local subscription now unless it is already cancelled: a `cancel()` in a trial
   * cancels at Braintree at once, and its notification must not cut short the grace period the
   * trial gives (notifications may arrive after the local `ends_at` was set).
   */
  protected async endSubscription(providerSubscriptionId: string): Promise<number> {
    if (!this.repository || !this.clock) return this.cancelSubscription(providerSubscriptionId);
    const rows = await this.repository.findByProviderId('braintree_id', providerSubscriptionId);
    const now = this.clock.now().toISOString();
    let changed = 0;
    for (const row of rows) {
      if (row.ends_at !== null) continue;
      await this.repository.update(row.id, { ends_at: now });
      changed++;
    }
    return changed;
  }
}
