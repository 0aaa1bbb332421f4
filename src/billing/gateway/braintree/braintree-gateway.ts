import { createHash } from 'node:crypto';
import type braintree from 'braintree';
import type { Clock } from '../../../core/clock.js';
import type { Logger } from '../../../core/logger.js';
import type { CouponConfig } from '../../config.js';
import { BillingError } from '../../errors.js';
import type { InvoiceHistory } from '../../invoices/issued-invoices.js';
import { currencyUnit } from '../../money.js';
import type {
  ChargeInput,
  ChargeResponse,
  CreateCustomerInput,
  CreateSubscriptionInput,
  GatewayCustomer,
  GatewayInvoice,
  GatewayPayment,
  GatewaySubscription,
  InvoiceForInput,
  PaymentGateway,
  ResumeContext,
  SubscriptionChanges,
  UsageReport,
  WebhookEvent,
  WebhookRequest,
} from '../payment-gateway.js';
import { braintreeCapabilities } from './capabilities.js';
import { braintreeCall, isNotFound, ok } from './errors.js';
import { BraintreeHistory } from './history.js';
import { BraintreeInvoices } from './invoices.js';
import { mapCustomer, mapSubscription } from './map.js';
import { Pricing } from './pricing.js';
import { paymentIdOf } from './sca.js';
import { BraintreeSubscriptions } from './subscriptions.js';
import { BraintreeThreeDSecure } from './three-d-secure.js';
import type { BtCustomer, BtNotification, BtResult, BtSubscription, BtTransaction } from './types.js';
import { BraintreeUsage } from './usage.js';
import { subscriptionSyncOf } from './webhook-sync.js';

export interface BraintreePaymentGatewayOptions {
  gateway: braintree.BraintreeGateway;
  clock: Clock;
  /** `billing.coupons`: percent-off coupons get their Braintree discount amount from the price. */
  coupons?: readonly CouponConfig[];
  /** The merchant account's currency (`billing.currency`): Braintree amounts are read and sent in it. */
  currency?: string;
  /** Where invoices are frozen at issue (`billing_issued_invoices`); without it, mapped from current terms. */
  history?: InvoiceHistory;
  logger?: Logger;
  /** Verify cards when they are vaulted (Braintree's `verifyCard`), so a bad card fails at once. */
  verifyCard?: boolean;
  /**
   * The sandbox's stand-in for the Drop-in's 3-D Secure challenge (`…/_sandbox/three_d_secure`),
   * offered to the confirmation page as `payment.actionUrl`; none against Braintree itself.
   */
  challengePage?: string | null;
  /** Called when the gateway closes (the embedded sandbox stops). */
  onClose?: () => Promise<void>;
}

/** Subscription states in which a subscription still bills a payment method. */
const LIVE = new Set(['Active', 'Pending', 'Past Due']);

/**
 * The Braintree edition over the official SDK, in the manner of Cashier for Braintree 2: customers
 * vault a payment-method nonce (card or PayPal), tax is added to the subscription price, coupons are
 * discounts, and a yearly↔monthly swap replaces the subscription with a `plan-credit` discount.
 * Braintree has no idempotency keys; the keys the core passes are not sent.
 */
export class BraintreePaymentGateway implements PaymentGateway {
  readonly capabilities = braintreeCapabilities;
  readonly gateway: braintree.BraintreeGateway;
  readonly #options: BraintreePaymentGatewayOptions;
  readonly #subscriptions: BraintreeSubscriptions;
  readonly #invoices: BraintreeInvoices;
  readonly #history: BraintreeHistory;
  readonly #pricing: Pricing;
  readonly #usage: BraintreeUsage;
  readonly #threeDSecure: BraintreeThreeDSecure;

  constructor(options: BraintreePaymentGatewayOptions) {
    this.#options = options;
    this.gateway = options.gateway;
    const unit = currencyUnit(options.currency ?? 'usd');
    this.#pricing = new Pricing(options.gateway, options.coupons ?? [], unit);
    this.#history = new BraintreeHistory(options.history, unit.code, options.clock, options.logger);
    this.#subscriptions = new BraintreeSubscriptions(
      options.gateway,
      this.#pricing,
      options.clock,
      this.#history,
    );
    this.#usage = new BraintreeUsage(this.#subscriptions, unit);
    this.#threeDSecure = new BraintreeThreeDSecure(
      options.gateway,
      this.#subscriptions,
      options.challengePage ?? null,
      (t) => this.#history.issued([t], null, null),
    );
    this.#invoices = new BraintreeInvoices(
      options.gateway,
      this.#pricing,
      this.#subscriptions,
      this.#history,
    );
  }

  private cardOptions(): Record<string, unknown> {
    return this.#options.verifyCard ? { verifyCard: true } : {};
  }

  private async customer(id: string): Promise<BtCustomer> {
    return braintreeCall(
      'customer.find',
      async () => (await this.gateway.customer.find(id)) as unknown as BtCustomer,
    );
  }

  async createCustomer(input: CreateCustomerInput): Promise<GatewayCustomer> {
    const [firstName, ...rest] = input.name.trim().split(/\s+/);
    const params: Record<string, unknown> = {
      firstName,
      lastName: rest.join(' ') || undefined,
      email: input.email,
      ...input.details,
    };
    if (input.token) {
      params.paymentMethodNonce = input.token;
      const card = (input.details.creditCard ?? {}) as Record<string, unknown>;
      const options = { ...this.cardOptions(), ...((card.options ?? {}) as object) };
      if (Object.keys(options).length) params.creditCard = { ...card, options };
    }
    const result = (await braintreeCall('customer.create', () =>
      this.gateway.customer.create(params as braintree.CustomerCreateRequest),
    )) as unknown as BtResult;
    return mapCustomer(ok(result, 'customer.create').customer as BtCustomer);
  }

  /** Vaults the nonce as the default method and moves the live subscriptions onto it (Cashier-Braintree). */
  async updatePaymentMethod(customerId: string, token: string): Promise<GatewayCustomer> {
    const result = (await braintreeCall('paymentMethod.create', () =>
      this.gateway.paymentMethod.create({
        customerId,
        paymentMethodNonce: token,
        options: { makeDefault: true, ...this.cardOptions() },
      }),
    )) as unknown as BtResult;
    const method = ok(result, 'paymentMethod.create').paymentMethod;
    const customer = await this.customer(customerId);
    const subscriptions = (customer.paymentMethods ?? [])
      .filter((m) => m.token !== method?.token)
      .flatMap((m) => m.subscriptions ?? [])
      .filter((s: BtSubscription) => LIVE.has(s.status));
    for (const s of subscriptions) {
      const updated = (await braintreeCall('subscription.update', () =>
        this.gateway.subscription.update(s.id, { paymentMethodToken: method?.token ?? '' }),
      )) as unknown as BtResult;
      ok(updated, 'subscription.update');
    }
    return mapCustomer(customer);
  }

  async createSubscription(input: CreateSubscriptionInput): Promise<GatewaySubscription> {
    if (input.quantity !== 1) throw BillingError.unsupportedByEdition('Subscription quantities', 'braintree');
    return this.#subscriptions.create(input, await this.customer(input.customerId));
  }

  updateSubscription(id: string, changes: SubscriptionChanges): Promise<GatewaySubscription> {
    return this.#subscriptions.change(id, changes);
  }

  async setAddOnQuantity(id: string, addOn: string, quantity: number): Promise<GatewaySubscription> {
    const sub = await this.#subscriptions.find(id);
    const existing = (sub.addOns ?? []).find((m) => m.id === addOn);
    if (quantity === (existing?.quantity ?? 0)) return mapSubscription(sub);
    const addOns =
      quantity === 0
        ? { remove: [addOn] }
        : existing
          ? { update: [{ existingId: addOn, quantity }] }
          : { add: [{ inheritedFromId: addOn, quantity, neverExpires: true }] };
    return mapSubscription(await this.#subscriptions.update(id, { addOns }));
  }

  cancelSubscription(id: string, options: { atPeriodEnd: boolean }): Promise<GatewaySubscription> {
    return this.#subscriptions.cancel(id, options.atPeriodEnd);
  }

  /**
   * A first payment waiting for 3-D Secure made no subscription at Braintree (it is made under the
   * row's id once the payment is completed, which `Payments.complete` refuses for an ended row):
   * nothing to end there. One found was paid before this, and is live.
   */
  abandonSubscription(id: string): Promise<GatewaySubscription | null> {
    return this.findSubscription(id);
  }

  resumeSubscription(id: string, context: ResumeContext): Promise<GatewaySubscription> {
    return this.#subscriptions.resume(id, context);
  }

  async findSubscription(id: string): Promise<GatewaySubscription | null> {
    const sub = await this.#subscriptions.findOrNull(id);
    return sub ? mapSubscription(sub) : null;
  }

  /** The subscriptions on the customer's payment methods (`customer.find`), in any status. */
  async listSubscriptions(customerId: string): Promise<GatewaySubscription[]> {
    const customer = await this.customer(customerId);
    return (customer.paymentMethods ?? []).flatMap((m) =>
      (m.subscriptions ?? []).map((s) => mapSubscription(s)),
    );
  }

  async findCustomer(id: string): Promise<GatewayCustomer | null> {
    try {
      return mapCustomer(await this.customer(id));
    } catch (err) {
      if (isNotFound(err)) return null;
      throw err;
    }
  }

  /**
   * A payment that waits for the customer's 3-D Secure, by the id of the transaction Braintree
   * declined for it (`IncompletePayment.payment.id`): see `three-d-secure.ts`.
   */
  findPayment(id: string): Promise<GatewayPayment | null> {
    return this.#threeDSecure.find(id);
  }

  /** The payment an `incomplete` subscription waits on (its id names the declined transaction). */
  async latestPayment(subscriptionId: string): Promise<GatewayPayment | null> {
    const id = paymentIdOf(subscriptionId);
    return id ? this.#threeDSecure.find(id) : null;
  }

  /** Pays with the nonce the customer verified through 3-D Secure (the Drop-in's `verifyCard`). */
  completePayment(id: string, nonce: string): Promise<GatewayPayment> {
    return this.#threeDSecure.complete(id, nonce);
  }

  reportUsage(report: UsageReport): Promise<void> {
    return this.#usage.report(report);
  }

  async successorOf(id: string): Promise<GatewaySubscription | null> {
    const sub = await this.#subscriptions.successor(id);
    return sub ? mapSubscription(sub) : null;
  }

  /** `transaction.sale` in the full currency unit, submitted for settlement; returns the transaction. */
  async charge(input: ChargeInput): Promise<ChargeResponse> {
    const t = await this.sale(input);
    await this.#history.issued([t], null, null);
    return t as unknown as ChargeResponse;
  }

  private async sale(input: ChargeInput): Promise<BtTransaction> {
    // Braintree's currency is the merchant account's; the core's `currency` option has no field here.
    const {
      currency: _currency,
      options,
      ...rest
    } = input.options as {
      currency?: string;
      options?: Record<string, unknown>;
    } & Record<string, unknown>;
    const params: Record<string, unknown> = {
      ...rest,
      amount: this.#pricing.unit.major(this.#pricing.unit.minor(input.amount)),
      options: { submitForSettlement: true, ...options },
    };
    if (!params.paymentMethodToken && !params.paymentMethodNonce && !params.customerId) {
      if (!input.customerId) throw BillingError.customerMissing();
      params.customerId = input.customerId;
    }
    const result = (await braintreeCall('transaction.sale', () =>
      this.gateway.transaction.sale(params as unknown as braintree.TransactionRequest),
    )) as unknown as BtResult;
    return ok(result, 'transaction.sale').transaction as BtTransaction;
  }

  /** Cashier-Braintree's `invoiceFor`: a sale whose `description` custom field names the line. */
  async invoiceFor(input: InvoiceForInput): Promise<GatewayInvoice> {
    const customFields = {
      ...((input.options.customFields ?? {}) as object),
      description: input.description,
    };
    const t = await this.sale({
      customerId: input.customerId,
      amount: input.amount,
      options: { ...input.options, customFields },
      idempotencyKey: input.idempotencyKey,
    });
    await this.#history.issued([t], null, null);
    return this.#invoices.map(t);
  }

  voidInvoice(id: string): Promise<GatewayInvoice> {
    return this.#invoices.void(id);
  }

  invoices(customerId: string, options: { includePending: boolean }): Promise<GatewayInvoice[]> {
    return this.#invoices.list(customerId, options.includePending);
  }

  findInvoice(customerId: string, id: string): Promise<GatewayInvoice | null> {
    return this.#invoices.find(customerId, id);
  }

  async upcomingInvoice(customerId: string, subscriptionId?: string): Promise<GatewayInvoice | null> {
    let id = subscriptionId;
    if (!id) {
      const customer = await this.customer(customerId);
      id = (customer.paymentMethods ?? [])
        .flatMap((m) => m.subscriptions ?? [])
        .find((s) => LIVE.has(s.status))?.id;
    }
    return id ? this.#invoices.upcoming(customerId, id) : null;
  }

  /** `bt_signature`/`bt_payload`, verified by the SDK (https://developer.paypal.com/braintree/docs/guides/webhooks/parse). */
  async parseWebhook(request: WebhookRequest): Promise<WebhookEvent> {
    const form = request.form ?? Object.fromEntries(new URLSearchParams(request.body));
    const signature = form.bt_signature;
    const payload = form.bt_payload;
    if (!signature || !payload) throw BillingError.invalidWebhookSignature('no bt_signature or bt_payload');
    let notification: BtNotification;
    try {
      notification = (await this.gateway.webhookNotification.parse(
        signature,
        payload,
      )) as unknown as BtNotification;
    } catch (err) {
      throw BillingError.invalidWebhookSignature(err instanceof Error ? err.message : String(err));
    }
    const sync = subscriptionSyncOf(notification);
    // A subscription cancelled by a swap that re-created it: its rows move to the replacement.
    const replacedBy = sync?.ended ? await this.successorOf(sync.subscription.id) : null;
    return {
      id: notificationId(payload),
      name: notification.kind,
      createdAt: new Date(notification.timestamp),
      payload: notification,
      subscriptionId: notification.subscription?.id ?? null,
      sync: sync && replacedBy ? { ...sync, replacedBy } : sync,
      ...(notification.kind === 'subscription_charged_successfully'
        ? { record: () => this.#subscriptions.recordRenewal(notification.subscription as BtSubscription) }
        : {}),
    };
  }

  async close(): Promise<void> {
    await this.#options.onClose?.();
  }
}

/**
 * Braintree notifications carry no id; the signed payload (kind, timestamp, subject) identifies one,
 * and a redelivery repeats it byte for byte.
 */
export function notificationId(btPayload: string): string {
  return `bt_${createHash('sha256').update(btPayload.trim()).digest('hex').slice(0, 32)}`;
}
