import type Stripe from 'stripe';
import type { Binding } from '../../../core/container.js';
import type { EventDispatcher } from '../../../core/events.js';
import { EventsKey, LoggerKey } from '../../../core/keys.js';
import type { Logger } from '../../../core/logger.js';
import { Users } from '../../billable-user.js';
import { Customers } from '../../customers/customers.js';
import { InvoicePaid } from '../../invoices/invoice-paid.js';
import { PaymentActionRequired } from '../../payments/payment-action-required.js';
import { PaymentFailed } from '../../payments/payment-failed.js';
import { Payments } from '../../payments/payments.js';
import { TrialWillEnd } from '../../subscriptions/subscription-lifecycle.js';
import { refreshCardOf } from '../../webhooks/refresh-card.js';
import { WebhookController } from '../../webhooks/webhook-controller.js';
import { WebhookEvents } from '../../webhooks/webhook-events.js';
import { WebhookSubscriptions } from '../../webhooks/webhook-subscriptions.js';
import { type PaymentGateway, PaymentGatewayKey, type WebhookEvent } from '../payment-gateway.js';

/**
 * Stripe's receiver (`POST /stripe/webhook`). The shared receiver applies `customer.subscription.*`
 * state to the local row before any handler runs (`webhook-sync.ts`); Stripe deletes a
 * subscription after its last failed retry (https://docs.stripe.com/billing/subscriptions/overview#settings),
 * which ends the local one. `invoice.payment_action_required` (a renewal that needs 3-D Secure)
 * dispatches `PaymentActionRequired` for the application to send the customer the confirmation link.
 * `checkout.session.completed` stores the subscription a Checkout Session made (the shared receiver);
 * `customer.updated` brings the card on file up to date (a card replaced in the billing portal).
 * Extend this class to handle more events.
 *
 * @example
 * class MyWebhooks extends StripeWebhookController {
 *   async handleInvoicePaymentSucceeded(payload: Stripe.Event) { … }
 * }
 * app.router.post('/stripe/webhook', [MyWebhooks, 'handle']);
 */
export class StripeWebhookController extends WebhookController {
  static override inject: readonly Binding[] = [
    PaymentGatewayKey,
    WebhookEvents,
    WebhookSubscriptions,
    LoggerKey,
    Payments,
    EventsKey,
    Users,
    Customers,
  ];

  constructor(
    gateway: PaymentGateway,
    events: WebhookEvents,
    subscriptions: WebhookSubscriptions,
    logger: Logger,
    // Optional, so a subclass made with the base receiver's four dependencies still constructs.
    protected readonly payments?: Payments,
    protected readonly dispatcher?: EventDispatcher,
    protected readonly users?: Users,
    protected readonly customers?: Customers,
  ) {
    super(gateway, events, subscriptions, logger);
  }

  /** The default card may have changed at Stripe (dashboard, portal, another app): copy it. */
  async handleCustomerUpdated(payload: Stripe.Event): Promise<void> {
    await this.refreshCard((payload.data.object as Stripe.Customer).id);
  }

  async handlePaymentMethodAttached(payload: Stripe.Event): Promise<void> {
    await this.refreshCard(customerOf(payload));
  }

  async handlePaymentMethodDetached(payload: Stripe.Event): Promise<void> {
    await this.refreshCard(customerOf(payload));
  }

  async handlePaymentMethodUpdated(payload: Stripe.Event): Promise<void> {
    await this.refreshCard(customerOf(payload));
  }

  async handlePaymentMethodAutomaticallyUpdated(payload: Stripe.Event): Promise<void> {
    await this.refreshCard(customerOf(payload));
  }

  /** Copies the customer's current default card to its user, if the customer is one of ours. */
  protected async refreshCard(customerId: string | null): Promise<void> {
    await refreshCardOf(customerId, {
      payments: this.payments,
      users: this.users,
      customers: this.customers,
    });
  }

  async handleCustomerSubscriptionDeleted(_payload: unknown, event: WebhookEvent): Promise<void> {
    if (event.subscriptionId) await this.cancelSubscription(event.subscriptionId);
  }

  /** https://docs.stripe.com/billing/subscriptions/overview#requires-action */
  async handleInvoicePaymentActionRequired(payload: Stripe.Event): Promise<void> {
    const invoice = payload.data.object as Stripe.Invoice;
    const findLatest = this.gateway.latestPayment;
    const subId = subscriptionOf(invoice);
    // The current payment, fetched: the one in a late or repeated event may be done already.
    const payment = subId && findLatest ? await findLatest.call(this.gateway, subId) : null;
    if (payment?.status !== 'requires_action') return;
    const userId = await this.userOf(invoice);
    await this.dispatcher?.dispatch(new PaymentActionRequired(userId, payment, invoice.id ?? ''));
  }

  /** A renewal was declined: `PaymentFailed` (the subscription goes past due). */
  async handleInvoicePaymentFailed(payload: Stripe.Event): Promise<void> {
    const invoice = payload.data.object as Stripe.Invoice;
    if (!invoice.id) return;
    const subId = subscriptionOf(invoice);
    // A payment that awaits 3-D Secure fails too; `PaymentActionRequired` tells of that one.
    const findLatest = this.gateway.latestPayment;
    const payment = subId && findLatest ? await findLatest.call(this.gateway, subId) : null;
    if (payment?.status === 'requires_action') return;
    await this.dispatcher?.dispatch(new PaymentFailed(await this.userOf(invoice), invoice.id, subId));
  }

  /** An invoice was paid: `InvoicePaid` (a receipt), unless it was for nothing (a trial's $0 invoice). */
  async handleInvoicePaymentSucceeded(payload: Stripe.Event): Promise<void> {
    const invoice = payload.data.object as Stripe.Invoice;
    if (!invoice.id || !(invoice.amount_paid > 0)) return;
    const subId = subscriptionOf(invoice);
    await this.dispatcher?.dispatch(new InvoicePaid(await this.userOf(invoice), invoice.id, subId));
  }

  /** https://docs.stripe.com/billing/subscriptions/trials#use-webhooks-to-manage-trials — three days before. */
  async handleCustomerSubscriptionTrialWillEnd(payload: Stripe.Event): Promise<void> {
    const subscription = payload.data.object as Stripe.Subscription;
    const record = await this.subscriptions.providerUpdates.findByProviderId(subscription.id);
    if (!record || !subscription.trial_end) return;
    const trialEndsAt = new Date(subscription.trial_end * 1000).toISOString();
    await this.dispatcher?.dispatch(
      new TrialWillEnd(record.userId ?? undefined, subscription.id, record.plan, trialEndsAt),
    );
  }

  private async userOf(invoice: Stripe.Invoice): Promise<number | undefined> {
    const customer = typeof invoice.customer === 'string' ? invoice.customer : invoice.customer?.id;
    return customer ? await this.payments?.userIdOf(customer) : undefined;
  }
}

function subscriptionOf(invoice: Stripe.Invoice): string | undefined {
  const subscription = invoice.parent?.subscription_details?.subscription;
  return typeof subscription === 'string' ? subscription : subscription?.id;
}

/** The customer a payment-method event concerns (a detached one names it only in `previous_attributes`). */
function customerOf(payload: Stripe.Event): string | null {
  const pm = payload.data.object as Stripe.PaymentMethod;
  const previous = payload.data.previous_attributes as { customer?: string | null } | undefined;
  const customer = pm.customer ?? previous?.customer ?? null;
  return typeof customer === 'string' ? customer : (customer?.id ?? null);
}
