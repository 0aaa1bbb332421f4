import { IncompletePayment } from '../../errors.js';
import { currencyUnit } from '../../money.js';
import type { GatewayPayment } from '../payment-gateway.js';
import type { BtTransaction } from './types.js';

/**
 * The subscription a payment that waits for 3-D Secure will start, and the sale that completes a
 * one-off one: their ids are the declined transaction's with this suffix, chosen before they exist
 * (Braintree lets the caller pick a subscription's id), so every step finds them again.
 */
const SUFFIX = '-3ds';

export const completionId = (transactionId: string): string => `${transactionId}${SUFFIX}`;

/** The declined transaction a subscription id of `completionId` stands for, if it is one. */
export const paymentIdOf = (subscriptionId: string): string | null =>
  subscriptionId.endsWith(SUFFIX) ? subscriptionId.slice(0, -SUFFIX.length) : null;

/**
 * Braintree's answers to a payment that needed the customer's authentication: the issuer's soft
 * decline 2099 "Cardholder Authentication Required" (strong customer authentication), or the
 * gateway's `three_d_secure` rejection (an authentication that failed while it was required).
 * https://developer.paypal.com/braintree/docs/reference/general/processor-responses/authorization-responses
 */
export function needsAuthentication(t: BtTransaction | undefined): boolean {
  return (
    (t?.status === 'processor_declined' && t.processorResponseCode === '2099') ||
    (t?.status === 'gateway_rejected' && t.gatewayRejectionReason === 'three_d_secure')
  );
}

/** A declined transaction as the payment the customer completes on the confirmation page. */
export function paymentOf(
  t: BtTransaction,
  status: GatewayPayment['status'] = 'requires_action',
): GatewayPayment {
  const unit = currencyUnit(t.currencyIsoCode ?? 'usd');
  return {
    id: t.id,
    clientSecret: null,
    status,
    amount: unit.minor(t.amount),
    currency: unit.code,
    customerId: t.customer?.id ?? null,
    actionUrl: null,
    failureMessage: null,
    invoiceId: null,
    subscriptionId: t.planId ? completionId(t.id) : null,
  };
}

/** `IncompletePayment` for a payment Braintree refused until the customer authenticates it. */
export function incompletePayment(t: BtTransaction): IncompletePayment {
  return new IncompletePayment(paymentOf(t));
}
