import type { Binding } from '../../../core/container.js';
import type { EventDispatcher } from '../../../core/events.js';
import { EventsKey } from '../../../core/keys.js';
import type { Logger } from '../../../core/logger.js';
import { InvoicePaid } from '../../invoices/invoice-paid.js';
import { PaymentFailed } from '../../payments/payment-failed.js';
import { CardRefresh } from '../../webhooks/refresh-card.js';
import { WebhookController } from '../../webhooks/webhook-controller.js';
import type { WebhookEvents } from '../../webhooks/webhook-events.js';
import type { WebhookSubscriptions } from '../../webhooks/webhook-subscriptions.js';
import type { PaymentGateway, WebhookEvent } from '../payment-gateway.js';
import type { BtNotification } from './types.js';

/**
 * Braintree's receiver (`POST /braintree/webhook`): `bt_signature`/`bt_payload` verified by the SDK's
 * `webhookNotification.parse`, then `handle` + CamelCase(kind) with the parsed notification
 * (`dispute_opened` → `handleDisputeOpened(notification)`). Braintree cancels a subscription after its
 * last failed retry (`subscription_canceled`) and expires one whose billing cycles ran out
 * (`subscription_expired`, how a cancel at period end finishes); both end the local subscription
 * by the shared rule, which leaves a subscription already cancelled here to its grace period (a
 * `cancel()` in a trial cancels at Braintree at once, and its notice may arrive after it).
 * `payment_method_revoked_by_customer` (a PayPal billing agreement cancelled at PayPal) and
 * `payment_method_customer_data_updated` bring the user's payment method on file up to date from
 * the customer as Braintree has it now.
 *
 * @example
 * class MyWebhooks extends BraintreeWebhookController {
 *   async handleDisputeOpened(notification: braintree.WebhookNotification) { … }
 * }
 * app.router.post('/braintree/webhook', [MyWebhooks, 'handle']);
 */
export class BraintreeWebhookController extends WebhookController {
  static override inject: readonly Binding[] = [...WebhookController.inject, CardRefresh, EventsKey];

  constructor(
    gateway: PaymentGateway,
    events: WebhookEvents,
    subscriptions: WebhookSubscriptions,
    logger: Logger,
    // Optional, so a subclass made with the base receiver's four dependencies still constructs.
    protected readonly cards?: CardRefresh,
    protected readonly dispatcher?: EventDispatcher,
  ) {
    super(gateway, events, subscriptions, logger);
  }

  async handleSubscriptionCanceled(_notification: unknown, event: WebhookEvent): Promise<void> {
    if (event.subscriptionId) await this.cancelSubscription(event.subscriptionId);
  }

  async handleSubscriptionExpired(_notification: unknown, event: WebhookEvent): Promise<void> {
    if (event.subscriptionId) await this.cancelSubscription(event.subscriptionId);
  }

  /** A renewal was declined: `PaymentFailed` (the subscription goes past due after the retries). */
  async handleSubscriptionChargedUnsuccessfully(
    notification: BtNotification,
    event: WebhookEvent,
  ): Promise<void> {
    if (!event.subscriptionId) return;
    const record = await this.subscriptions.providerUpdates.findByProviderId(event.subscriptionId);
    const reference = notification.subscription?.transactions?.[0]?.id ?? event.id;
    await this.dispatcher?.dispatch(
      new PaymentFailed(record?.userId ?? undefined, reference, event.subscriptionId),
    );
  }

  /** A renewal was charged: `InvoicePaid` with its transaction (Braintree's invoice). */
  async handleSubscriptionChargedSuccessfully(
    notification: BtNotification,
    event: WebhookEvent,
  ): Promise<void> {
    const transaction = notification.subscription?.transactions?.[0]?.id;
    if (!event.subscriptionId || !transaction) return;
    const record = await this.subscriptions.providerUpdates.findByProviderId(event.subscriptionId);
    await this.dispatcher?.dispatch(
      new InvoicePaid(record?.userId ?? undefined, transaction, event.subscriptionId),
    );
  }

  async handlePaymentMethodRevokedByCustomer(notification: BtNotification): Promise<void> {
    await this.refreshCard(notification.revokedPaymentMethodMetadata?.customerId);
  }

  async handlePaymentMethodCustomerDataUpdated(notification: BtNotification): Promise<void> {
    await this.refreshCard(notification.paymentMethodCustomerDataUpdatedMetadata?.paymentMethod?.customerId);
  }

  /** Copies the customer's current default payment method to its user, if the customer is one of ours. */
  protected async refreshCard(customerId: string | undefined): Promise<void> {
    await this.cards?.refresh(customerId);
  }
}
