import type { ModificationRecord, SubscriptionRecord } from '../store/records.js';
import type { SandboxStore } from '../store/store.js';
import { daysBetween } from './calendar.js';
import { formatAmount } from './money.js';
import { serializeTransaction } from './transactions.js';
import { array, boolean, date, datetime, integer, text, type XmlNode } from './xml.js';

/** A discount or add-on as `<discount>`/`<add-on>` on a subscription or a recurring transaction. */
export function modification(m: ModificationRecord, currency?: string | null): XmlNode {
  return {
    id: m.id,
    name: m.name,
    amount: formatAmount(m.amount, currency),
    'inherited-from-id': m.inheritedFromId,
    'never-expires': boolean(m.neverExpires),
    'number-of-billing-cycles': integer(m.numberOfBillingCycles),
    'current-billing-cycle': integer(m.currentBillingCycle),
    quantity: integer(m.quantity),
  };
}

/** A modification stops applying once it has been billed its number of cycles; it stays listed. */
export function isApplicable(m: ModificationRecord): boolean {
  return (
    m.neverExpires || m.numberOfBillingCycles === null || m.currentBillingCycle < m.numberOfBillingCycles
  );
}

/** The recurring amount before balance: price + add-ons − discounts, in cents. */
export function recurringAmount(s: SubscriptionRecord): number {
  const sum = (list: ModificationRecord[]) =>
    list.filter(isApplicable).reduce((total, m) => total + m.amount * m.quantity, 0);
  return s.price + sum(s.addOns) - sum(s.discounts);
}

export function serializeSubscription(store: SandboxStore, s: SubscriptionRecord): XmlNode {
  const next = Math.max(0, recurringAmount(s)) + s.balance;
  const transactions = s.transactionIds
    .map((id) => store.transactions.get(id))
    .filter((t) => t !== undefined)
    .reverse();
  return {
    id: s.id,
    'plan-id': s.planId,
    price: formatAmount(s.price, s.currencyIsoCode),
    status: s.status,
    balance: formatAmount(s.balance, s.currencyIsoCode),
    'payment-method-token': s.paymentMethodToken,
    'merchant-account-id': 'sandbox',
    'currency-iso-code': s.currencyIsoCode,
    'trial-period': boolean(s.trialPeriod),
    'trial-duration': integer(s.trialDuration),
    'trial-duration-unit': text(s.trialDurationUnit),
    'first-billing-date': date(s.firstBillingDate),
    'next-billing-date': date(s.status === 'Canceled' || s.status === 'Expired' ? null : s.nextBillingDate),
    'billing-period-start-date': date(s.billingPeriodStartDate),
    'billing-period-end-date': date(s.billingPeriodEndDate),
    'paid-through-date': date(s.paidThroughDate),
    'billing-day-of-month': integer(s.billingDayOfMonth),
    'current-billing-cycle': integer(s.currentBillingCycle),
    'failure-count': integer(s.failureCount),
    'days-past-due': integer(
      s.pastDueSince ? Math.max(0, daysBetween(s.pastDueSince, store.now().slice(0, 10))) : null,
    ),
    'never-expires': boolean(s.neverExpires),
    'number-of-billing-cycles': integer(s.numberOfBillingCycles),
    'next-bill-amount': formatAmount(next, s.currencyIsoCode),
    'next-billing-period-amount': formatAmount(next, s.currencyIsoCode),
    'created-at': datetime(s.createdAt),
    'updated-at': datetime(s.updatedAt),
    discounts: array(
      'discount',
      s.discounts.map((m) => modification(m, s.currencyIsoCode)),
    ),
    'add-ons': array(
      'add-on',
      s.addOns.map((m) => modification(m, s.currencyIsoCode)),
    ),
    transactions: array(
      'transaction',
      transactions.map((t) => serializeTransaction(store, t)),
    ),
    'status-history': array(
      'status-event',
      [...s.statusHistory].reverse().map((e) => ({
        status: e.status,
        timestamp: datetime(e.timestamp),
        price: formatAmount(e.price, s.currencyIsoCode),
        balance: formatAmount(e.balance, s.currencyIsoCode),
        'plan-id': e.planId,
        'subscription-source': 'api',
      })),
    ),
  };
}
