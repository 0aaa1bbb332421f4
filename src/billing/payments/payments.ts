import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Clock } from '../../core/clock.js';
import { ClockKey } from '../../core/keys.js';
import { DbKey } from '../../database/keys.js';
import type { Database } from '../../database/types.js';
import { type BillableOwner, refOf } from '../billable-user.js';
import { BillingLock } from '../billing-lock.js';
import { Customers } from '../customers/customers.js';
import { BillingError } from '../errors.js';
import {
  type GatewayPayment,
  type GatewaySetupIntent,
  type PaymentGateway,
  PaymentGatewayKey,
} from '../gateway/payment-gateway.js';
import { endedStatus } from '../subscriptions/provider-status.js';
import { ProviderUpdates } from '../subscriptions/provider-updates.js';
import { awaitsFirstPayment, ended } from '../subscriptions/status.js';
import { SubscriptionRepository } from '../subscriptions/subscription-repository.js';
import { gatewayMethod } from './gateway-method.js';

/**
 * Payments that may need the customer (strong customer authentication): the SetupIntent a card
 * form collects a card with, a user's payment by id for the confirmation page, and bringing the
 * subscription it paid for up to date once the customer confirmed it.
 */
export class Payments {
  static inject = [
    PaymentGatewayKey,
    Customers,
    ProviderUpdates,
    DbKey,
    ClockKey,
    SubscriptionRepository,
    BillingLock,
  ] as const;

  constructor(
    private readonly gateway: PaymentGateway,
    private readonly customers: Customers,
    private readonly providerUpdates: ProviderUpdates,
    private readonly db: Kysely<Database>,
    private readonly clock: Clock,
    private readonly repository: SubscriptionRepository,
    private readonly lock: BillingLock,
  ) {}

  /** A SetupIntent for the user's card form (for the customer, when the user is one). */
  createSetupIntent(user: BillableOwner): Promise<GatewaySetupIntent> {
    const create = gatewayMethod(this.gateway, 'createSetupIntent', 'SetupIntents');
    return create({
      customerId: this.customers.idOf(user) ?? null,
      idempotencyKey: `tollgate-setup-${randomUUID()}`,
    });
  }

  /**
   * The PaymentMethod a SetupIntent saved, once it succeeded — only the user's own (one made for
   * another customer is not found). Hand it to `create()` or `updateCard()`.
   */
  async setupIntentPaymentMethod(user: BillableOwner, id: string): Promise<string | null> {
    const find = gatewayMethod(this.gateway, 'findSetupIntent', 'SetupIntents');
    const intent = await find(id);
    if (!intent || (intent.customerId !== null && intent.customerId !== this.customers.idOf(user)))
      return null;
    return intent.paymentMethod;
  }

  /**
   * The user's payment (`payment_not_found` for anyone else's or an unknown id); `canceled`, with
   * the reason, when it was for a subscription that has ended here (an attempt replaced by
   * subscribing again), so the page offers no confirmation for it.
   */
  async find(user: BillableOwner, id: string): Promise<GatewayPayment> {
    const find = gatewayMethod(this.gateway, 'findPayment', 'Payment confirmation');
    const customerId = this.customers.idOf(user);
    const payment = customerId ? await find(id) : null;
    if (!payment || payment.customerId !== customerId) throw BillingError.paymentNotFound(id);
    return payment.status !== 'succeeded' && (await this.forEndedSubscription(payment))
      ? replaced(payment)
      : payment;
  }

  /**
   * Completes the user's payment with what the customer's 3-D Secure verification gave (Braintree:
   * the verified nonce the Drop-in's `verifyCard` returned), then brings its subscription up to
   * date. A payment completed already is not paid again; one for a subscription that has ended
   * here is not paid at all. Under the user's billing lock, so a `create()` that replaces the
   * attempt and this completion run one after the other.
   */
  complete(user: BillableOwner, id: string, verification: string): Promise<GatewayPayment> {
    const complete = gatewayMethod(this.gateway, 'completePayment', 'Completing a payment on the server');
    return this.lock.forOwner(refOf(user), async () => {
      const found = await this.find(user, id);
      if (found.status === 'canceled') return found;
      const payment = await complete(id, verification);
      if (payment.status === 'succeeded') await this.sync(payment);
      return payment;
    });
  }

  /** Whether the payment was for a subscription whose every local row has ended. */
  private async forEndedSubscription(payment: GatewayPayment): Promise<boolean> {
    if (!payment.subscriptionId) return false;
    const rows = await this.repository.findByProviderId(payment.subscriptionId);
    const now = this.clock.now();
    return rows.length > 0 && rows.every((row) => ended(row, now));
  }

  /**
   * Applies the provider's current state of the subscription a payment was for (after the
   * customer confirmed it): fetched, not assumed, and through the same ordered update as the
   * webhooks, so this and the `customer.subscription.updated` webhook agree whichever comes first.
   * Fetched with the rows locked, in one transaction with the write, as the webhook receiver does:
   * the provider's time has whole seconds, so a webhook applying a newer state in the same second
   * (the provider ended it) would otherwise be overwritten by the older state fetched here.
   */
  async sync(payment: GatewayPayment): Promise<void> {
    const id = payment.subscriptionId;
    if (!id) return;
    await this.db.transaction().execute(async (trx) => {
      await this.providerUpdates.lockProviderRows(trx, id);
      const remote = await this.gateway.findSubscription(id);
      if (!remote) return;
      await this.providerUpdates.applyProviderState(trx, {
        subscription: remote,
        // The provider's time of this answer: ordered against webhooks on the provider's clock.
        at: remote.asOf ?? this.clock.now(),
        ended: endedStatus(remote.status),
        whenUnknown: 'acknowledge',
      });
    });
  }

  /** The payment a subscription waits on for the customer's action (the billing page's banner), if any. */
  async pending(subscription: { providerId: string; status: string }): Promise<GatewayPayment | null> {
    if (!awaitsFirstPayment(subscription) && subscription.status !== 'past_due') return null;
    const latest = this.gateway.latestPayment;
    if (typeof latest !== 'function') return null;
    const payment = await latest.call(this.gateway, subscription.providerId);
    return payment?.status === 'requires_action' ? payment : null;
  }

  /** The user a provider customer id belongs to (webhooks), if any. */
  async userIdOf(customerId: string): Promise<number | undefined> {
    const column = this.gateway.capabilities.columns.customerId;
    const row = await this.db
      .selectFrom('users')
      .select('id')
      .where(column, '=', customerId)
      .executeTakeFirst();
    return row?.id;
  }
}

/** A payment whose subscription attempt ended: nothing may be paid on it. */
function replaced(payment: GatewayPayment): GatewayPayment {
  return {
    ...payment,
    status: 'canceled',
    clientSecret: null,
    actionUrl: null,
    failureMessage:
      'This payment was for a subscription that has ended (replaced when you subscribed again), so it can no longer be confirmed.',
  };
}
