import type { SandboxStore } from '../store/store.js';
import { formatAmount } from './money.js';

/** A JSON copy of the state with amounts as decimal strings, for `GET /_sandbox/state` and debugging. */
export function snapshot(store: SandboxStore) {
  return {
    now: store.now(),
    customers: [...store.customers.values()],
    paymentMethods: [...store.paymentMethods.values()],
    subscriptions: [...store.subscriptions.values()].map((s) => ({
      ...s,
      price: formatAmount(s.price, s.currencyIsoCode),
      balance: formatAmount(s.balance, s.currencyIsoCode),
      discounts: s.discounts.map((d) => ({ ...d, amount: formatAmount(d.amount, s.currencyIsoCode) })),
      addOns: s.addOns.map((a) => ({ ...a, amount: formatAmount(a.amount, s.currencyIsoCode) })),
    })),
    transactions: [...store.transactions.values()].map((t) => ({
      ...t,
      amount: formatAmount(t.amount, t.currencyIsoCode),
    })),
    plans: [...store.plans.values()],
    discounts: [...store.discounts.values()],
    addOns: [...store.addOns.values()],
    requests: store.requests.length,
    deliveries: store.deliveries.map(({ kind, subjectId, timestamp, url, status, error }) => ({
      kind,
      subjectId,
      timestamp,
      url,
      status,
      error,
    })),
  };
}
