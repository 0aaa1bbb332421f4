import type { DeliveryScheduler } from '../../shared/delivery.js';
import { postWebhook } from '../../shared/webhooks.js';
import { formatAmount } from '../objects/money.js';
import { serializePaymentMethod } from '../objects/payments.js';
import { signPayload } from '../objects/signature.js';
import { serializeSubscription } from '../objects/subscriptions.js';
import { serializeTransaction } from '../objects/transactions.js';
import { array, boolean, buildXml, date, datetime, nil, type XmlNode } from '../objects/xml.js';
import type { WebhookDelivery } from '../store/records.js';
import type { SandboxStore } from '../store/store.js';

const DISPUTE_STATUS: Record<string, string> = {
  dispute_opened: 'open',
  dispute_lost: 'lost',
  dispute_won: 'won',
  dispute_accepted: 'accepted',
  dispute_auto_accepted: 'auto_accepted',
  dispute_disputed: 'disputed',
  dispute_expired: 'expired',
  dispute_under_review: 'under_review',
};

/** The `<subject>` of a notification: the stored object when the id names one, a minimal one otherwise. */
function subjectFor(
  store: SandboxStore,
  kind: string,
  id: string,
  transactionId?: string,
): { [key: string]: XmlNode } {
  if (kind === 'check') return { check: boolean(true) };
  if (kind in DISPUTE_STATUS) {
    const t = store.transactions.get(transactionId ?? id);
    const today = store.now().slice(0, 10);
    return {
      dispute: {
        id,
        amount: formatAmount(t?.amount ?? 0, t?.currencyIsoCode),
        'amount-disputed': formatAmount(t?.amount ?? 0, t?.currencyIsoCode),
        'amount-won': '0.00',
        'currency-iso-code': t?.currencyIsoCode ?? 'USD',
        kind: 'chargeback',
        reason: 'fraud',
        status: DISPUTE_STATUS[kind] ?? 'open',
        'received-date': date(today),
        'date-opened': date(today),
        'case-number': `CB${id.toUpperCase()}`,
        transaction: t
          ? {
              id: t.id,
              amount: formatAmount(t.amount, t.currencyIsoCode),
              'created-at': datetime(t.createdAt),
            }
          : { id: transactionId ?? id },
        'status-history': array('status-history', []),
        evidence: array('evidence', []),
      },
    };
  }
  if (kind === 'payment_method_revoked_by_customer' || kind === 'payment_method_customer_data_updated') {
    const pm = store.paymentMethods.get(id);
    const [tag, node] = pm ? serializePaymentMethod(store, pm) : ['paypal-account', { token: id }];
    // Revoked: the method itself is the subject; customer data: wrapped in its metadata (Venmo's, at Braintree).
    if (kind === 'payment_method_revoked_by_customer') return { [tag]: node };
    return {
      'payment-method-customer-data-updated-metadata': {
        token: id,
        'payment-method': { [tag]: node },
        datetime: datetime(store.now()),
        'enriched-customer-data': nil(),
      },
    };
  }
  if (kind.startsWith('transaction_') || kind === 'refund_failed') {
    const t = store.transactions.get(id);
    return { transaction: t ? serializeTransaction(store, t) : { id, amount: '0.00', status: 'settled' } };
  }
  const s = store.subscriptions.get(id);
  if (s) return { subscription: serializeSubscription(store, s) };
  const empty = { $: { type: 'array' } };
  return { subscription: { id, transactions: empty, 'add-ons': empty, discounts: empty } };
}

export interface WebhookTarget {
  url: string | null;
  publicKey: string;
  privateKey: string;
}

/**
 * Builds and signs one notification as the form fields `bt_signature` and `bt_payload` — base64 of
 * the `<notification>` XML, its subject as it is now — which `webhookNotification.parse` accepts,
 * and (when a URL is set) POSTs it through the scheduler: at once and awaited, or later, perhaps
 * twice, retried (realistic mode). Each attempt is recorded.
 */
export async function deliver(
  store: SandboxStore,
  target: WebhookTarget,
  kind: string,
  subjectId: string,
  options: { transactionId?: string; scheduler?: DeliveryScheduler } = {},
): Promise<WebhookDelivery> {
  const timestamp = store.now();
  const xml = buildXml('notification', {
    timestamp: datetime(timestamp),
    kind,
    subject: subjectFor(store, kind, subjectId, options.transactionId),
  });
  const btPayload = `${Buffer.from(xml, 'utf8').toString('base64')}\n`;
  const btSignature = signPayload(target.publicKey, target.privateKey, btPayload);
  const notification: WebhookDelivery = {
    kind,
    subjectId,
    timestamp,
    url: target.url,
    status: null,
    btSignature,
    btPayload,
  };
  const url = target.url;
  if (!url) {
    store.deliveries.push(notification);
    return notification;
  }
  let last = notification;
  const attempt = async () => {
    const delivery: WebhookDelivery = { ...notification };
    store.deliveries.push(delivery);
    last = delivery;
    const outcome = await postWebhook(url, {
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ bt_signature: btSignature, bt_payload: btPayload }),
    });
    delivery.status = outcome.status;
    if (outcome.error !== null) delivery.error = outcome.error;
    return outcome.ok;
  };
  if (options.scheduler) await options.scheduler.dispatch([attempt]);
  else await attempt();
  return last;
}
