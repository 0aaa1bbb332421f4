import type { CustomerRecord, Instrument, PaymentMethodRecord } from '../store/records.js';
import type { SandboxStore } from '../store/store.js';
import { serializeSubscription } from './subscriptions.js';
import { array, boolean, datetime, nil, text, type XmlNode } from './xml.js';

const IMAGE = 'https://assets.braintreegateway.com/payment_method_logo';

/** Card fields shared by a vaulted card and a transaction's `<credit-card>` details. */
export function cardDetails(instrument: Instrument, token: string | null): { [key: string]: XmlNode } {
  const type = instrument.cardType ?? 'Unknown';
  return {
    token: text(token),
    bin: instrument.bin ?? '',
    'last-4': instrument.last4 ?? '',
    'card-type': type,
    'expiration-month': instrument.expirationMonth ?? '',
    'expiration-year': instrument.expirationYear ?? '',
    'masked-number': `${instrument.bin}******${instrument.last4}`,
    'cardholder-name': nil(),
    'customer-location': 'US',
    'image-url': `${IMAGE}/${type.toLowerCase().replace(/\s+/g, '_')}.png?environment=sandbox`,
    'unique-number-identifier': `${instrument.bin}${instrument.last4}`,
  };
}

export function paypalDetails(instrument: Instrument, token: string | null): { [key: string]: XmlNode } {
  return {
    token: text(token),
    'payer-email': instrument.email ?? '',
    'payer-id': 'SANDBOXPAYER',
    'image-url': `${IMAGE}/paypal.png?environment=sandbox`,
  };
}

/** A vaulted payment method as `[element, node]`: `credit-card` or `paypal-account`. */
export function serializePaymentMethod(store: SandboxStore, pm: PaymentMethodRecord): [string, XmlNode] {
  const common = {
    'customer-id': pm.customerId,
    default: boolean(store.isDefault(pm)),
    'created-at': datetime(pm.createdAt),
    'updated-at': datetime(pm.updatedAt),
    subscriptions: array(
      'subscription',
      store.subscriptionsOn(pm.token).map((s) => serializeSubscription(store, s)),
    ),
  };
  if (pm.kind === 'paypal_account') {
    return [
      'paypal-account',
      {
        token: pm.token,
        email: pm.email ?? '',
        'billing-agreement-id': `B-${pm.token.toUpperCase()}`,
        'image-url': `${IMAGE}/paypal.png?environment=sandbox`,
        'revoked-at': datetime(pm.revokedAt ?? null),
        ...common,
      },
    ];
  }
  return [
    'credit-card',
    {
      ...cardDetails(pm, pm.token),
      expired: boolean(false),
      'venmo-sdk': boolean(false),
      verifications: array('verification', []),
      ...common,
    },
  ];
}

export function serializeCustomer(store: SandboxStore, customer: CustomerRecord): XmlNode {
  const methods = store.paymentMethodsOf(customer.id).map((pm) => serializePaymentMethod(store, pm));
  return {
    id: customer.id,
    'first-name': text(customer.firstName),
    'last-name': text(customer.lastName),
    email: text(customer.email),
    company: text(customer.company),
    phone: text(customer.phone),
    'created-at': datetime(customer.createdAt),
    'updated-at': datetime(customer.updatedAt),
    'credit-cards': array(
      'credit-card',
      methods.filter(([tag]) => tag === 'credit-card').map(([, node]) => node),
    ),
    'paypal-accounts': array(
      'paypal-account',
      methods.filter(([tag]) => tag === 'paypal-account').map(([, node]) => node),
    ),
    addresses: array('address', []),
  };
}
