import type { ThreeDSecureInfo, TransactionRecord } from '../store/records.js';
import type { SandboxStore } from '../store/store.js';
import { formatAmount } from './money.js';
import { cardDetails, paypalDetails } from './payments.js';
import { modification } from './subscriptions.js';
import { array, boolean, date, datetime, nil, text, type XmlNode } from './xml.js';

export function serializeTransaction(store: SandboxStore, t: TransactionRecord): XmlNode {
  const customer = t.customerId ? store.customers.get(t.customerId) : undefined;
  const isPayPal = t.instrument.kind === 'paypal_account';
  const node: { [key: string]: XmlNode } = {
    id: t.id,
    status: t.status,
    type: t.type,
    'currency-iso-code': t.currencyIsoCode,
    amount: formatAmount(t.amount, t.currencyIsoCode),
    'merchant-account-id': 'sandbox',
    'order-id': text(t.orderId),
    'custom-fields': Object.fromEntries(
      Object.entries(t.customFields).map(([k, v]) => [k.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`), v]),
    ),
    'created-at': datetime(t.createdAt),
    'updated-at': datetime(t.updatedAt),
    customer: {
      id: text(t.customerId),
      'first-name': text(customer?.firstName),
      'last-name': text(customer?.lastName),
      email: text(customer?.email),
    },
    'processor-response-code': t.processorResponseCode,
    'processor-response-text': t.processorResponseText,
    'processor-response-type': t.processorResponseType,
    'gateway-rejection-reason': text(t.gatewayRejectionReason ?? null),
    'three-d-secure-info': t.threeDSecureInfo ? threeDSecureInfo(t.threeDSecureInfo) : nil(),
    'additional-processor-response': nil(),
    'payment-instrument-type': isPayPal ? 'paypal_account' : 'credit_card',
    'credit-card': isPayPal ? {} : cardDetails(t.instrument, t.paymentMethodToken),
    recurring: boolean(t.recurring),
    'plan-id': text(t.planId),
    'subscription-id': text(t.subscriptionId),
    subscription: {
      'billing-period-start-date': date(t.billingPeriodStartDate),
      'billing-period-end-date': date(t.billingPeriodEndDate),
    },
    'add-ons': array(
      'add-on',
      t.addOns.map((m) => modification(m, t.currencyIsoCode)),
    ),
    discounts: array(
      'discount',
      t.discounts.map((m) => modification(m, t.currencyIsoCode)),
    ),
    disputes: array('dispute', []),
    'settlement-batch-id': text(t.settledAt ? `${t.settledAt.slice(0, 10)}_sandbox` : null),
    'status-history': array('status-event', history(t)),
  };
  if (isPayPal) node.paypal = paypalDetails(t.instrument, t.paymentMethodToken);
  return node;
}

function history(t: TransactionRecord): XmlNode[] {
  const event = (status: string, at: string) => ({
    status,
    timestamp: datetime(at),
    amount: formatAmount(t.amount, t.currencyIsoCode),
    'transaction-source': t.recurring ? 'recurring' : 'api',
  });
  if (t.status !== 'settled' || !t.settledAt) return [event(t.status, t.createdAt)];
  return [event('submitted_for_settlement', t.createdAt), event('settled', t.settledAt)];
}

/** `<three-d-secure-info>` as Braintree reports it on a transaction and a nonce. */
export function threeDSecureInfo(info: ThreeDSecureInfo): XmlNode {
  return {
    status: info.status,
    'liability-shifted': boolean(info.liabilityShifted),
    'liability-shift-possible': boolean(info.liabilityShiftPossible),
    enrolled: info.enrolled,
  };
}
