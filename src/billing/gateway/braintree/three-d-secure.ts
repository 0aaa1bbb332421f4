import type braintree from 'braintree';
import { BillingError, IncompletePayment } from '../../errors.js';
import { currencyUnit } from '../../money.js';
import type { GatewayPayment } from '../payment-gateway.js';
import { braintreeCall, isNotFound, ok } from './errors.js';
import { collect } from './invoices.js';
import { isPaid } from './map.js';
import { completionId, needsAuthentication, paymentOf } from './sca.js';
import type { BtResult, BtTransaction } from './types.js';

/** What completing a payment needs from the subscription side (see `BraintreeSubscriptions`). */
export interface SubscriptionCompletion {
  /** Makes the subscription with the verified nonce, under `completionId(t.id)` (refused if it exists). */
  start(t: BtTransaction, nonce: string): Promise<void>;
  exists(id: string): Promise<boolean>;
}

/**
 * 3-D Secure on Braintree (https://developer.paypal.com/braintree/docs/guides/3d-secure/recurring-transactions):
 * a nonce is made from the vaulted card (`paymentMethodNonce.create`), the Drop-in's
 * `threeDSecure.verifyCard` runs the issuer's challenge on it and gives a verified nonce, and that
 * nonce pays — `subscription.create` with it for a subscription's first payment, a sale otherwise.
 */
export class BraintreeThreeDSecure {
  constructor(
    private readonly gateway: braintree.BraintreeGateway,
    private readonly subscriptions: SubscriptionCompletion,
    /** The sandbox's stand-in for the Drop-in's challenge (`…/_sandbox/three_d_secure`); null with Braintree itself. */
    private readonly challengePage: string | null,
    private readonly recordSale: (t: BtTransaction) => Promise<void>,
  ) {}

  private async transaction(id: string): Promise<BtTransaction | null> {
    try {
      return await braintreeCall(
        'transaction.find',
        async () => (await this.gateway.transaction.find(id)) as unknown as BtTransaction,
      );
    } catch (err) {
      if (isNotFound(err)) return null;
      throw err;
    }
  }

  /** Whether the payment was completed: its subscription exists, or its completing sale was made. */
  private async completed(t: BtTransaction): Promise<boolean> {
    if (t.planId) return this.subscriptions.exists(completionId(t.id));
    const sales = await braintreeCall('transaction.search', () =>
      collect<BtTransaction>(
        this.gateway.transaction.search((search) => {
          search.orderId().is(completionId(t.id));
        }),
      ),
    );
    return sales.some((sale) => isPaid(sale.status));
  }

  /**
   * The payment by the id of its declined transaction: `succeeded` once completed, `requires_action`
   * with a fresh nonce of the card to verify (`clientSecret`; offline, `actionUrl` is the sandbox's
   * challenge page for it), or `requires_payment_method` when it was declined for another reason.
   */
  async find(id: string): Promise<GatewayPayment | null> {
    const t = await this.transaction(id);
    if (t?.type !== 'sale') return null;
    if (await this.completed(t)) return paymentOf(t, 'succeeded');
    if (!needsAuthentication(t) || !t.creditCard?.token) return paymentOf(t, 'requires_payment_method');
    const result = (await braintreeCall('paymentMethodNonce.create', () =>
      this.gateway.paymentMethodNonce.create(t.creditCard?.token ?? ''),
    )) as unknown as { paymentMethodNonce: { nonce: string } };
    const nonce = result.paymentMethodNonce.nonce;
    const payment = paymentOf(t);
    const amount = `${currencyUnit(payment.currency).major(payment.amount)} ${payment.currency.toUpperCase()}`;
    return {
      ...payment,
      clientSecret: nonce,
      actionUrl: this.challengePage
        ? `${this.challengePage}?${new URLSearchParams({ nonce, amount })}`
        : null,
    };
  }

  /**
   * Pays with the nonce the customer verified: starts the subscription (under its chosen id) or
   * makes the sale (under `orderId` = that id, so it is found again). A payment already completed
   * (a double click, a reload) is not paid twice; a verification that failed leaves it to retry.
   */
  async complete(id: string, nonce: string): Promise<GatewayPayment> {
    const t = await this.transaction(id);
    if (t?.type !== 'sale') throw BillingError.paymentNotFound(id);
    if (await this.completed(t)) return paymentOf(t, 'succeeded');
    try {
      if (t.planId) await this.subscriptions.start(t, nonce);
      else await this.sale(t, nonce);
    } catch (err) {
      if (!(err instanceof BillingError)) throw err;
      // Made meanwhile by the other of two confirmations at once (the nonce used, the id taken).
      if (await this.completed(t)) return paymentOf(t, 'succeeded');
      if (err.status >= 500) throw err;
      const failureMessage =
        err instanceof IncompletePayment
          ? 'Your bank did not authenticate the payment (3-D Secure); nothing was charged.'
          : err.message;
      return { ...paymentOf(t, 'requires_payment_method'), failureMessage };
    }
    return paymentOf(t, 'succeeded');
  }

  private async sale(t: BtTransaction, nonce: string): Promise<void> {
    const result = (await braintreeCall('transaction.sale', () =>
      this.gateway.transaction.sale({
        amount: t.amount,
        paymentMethodNonce: nonce,
        orderId: completionId(t.id),
        customFields: t.customFields ?? undefined,
        options: { submitForSettlement: true },
      } as unknown as braintree.TransactionRequest),
    )) as unknown as BtResult;
    const sale = ok(result, 'transaction.sale').transaction as BtTransaction;
    if (isPaid(sale.status)) await this.recordSale(sale);
  }
}
