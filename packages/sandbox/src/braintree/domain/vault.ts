import { errorResult, type FieldError, fieldError } from '../objects/errors.js';
import { cardDetails } from '../objects/payments.js';
import type { Instrument, IssuedNonce, PaymentMethodRecord } from '../store/records.js';
import type { SandboxContext } from './context.js';
import { resolveNonce } from './nonces.js';

/** Nonce failures, by where the nonce was sent (codes from braintree/lib/braintree/validation_error_codes.js). */
const NONCE_CODES = {
  customer: { path: ['customer', 'credit-card'], consumed: '91731', unknown: '91732' },
  'payment-method': { path: ['payment-method'], consumed: '93107', unknown: '93108' },
  transaction: { path: ['transaction'], consumed: '91564', unknown: '91565' },
} as const;

export type NonceSite = keyof typeof NONCE_CODES;

export function takeNonce(ctx: SandboxContext, nonce: string, site: NonceSite): Instrument | FieldError {
  const found = takeIssued(ctx, nonce, site);
  return 'code' in found ? found : found.instrument;
}

/** The nonce with what it stands for: a vaulted method's token, a 3-D Secure outcome. */
export function takeIssued(ctx: SandboxContext, nonce: string, site: NonceSite): IssuedNonce | FieldError {
  const found = resolveNonce(nonce, ctx.store.nonces);
  if (found.ok)
    return { instrument: found.instrument, token: found.token, threeDSecureInfo: found.threeDSecureInfo };
  const codes = NONCE_CODES[site];
  return found.reason === 'consumed'
    ? fieldError(
        [...codes.path],
        'payment_method_nonce',
        codes.consumed,
        'Cannot use a payment_method_nonce more than once.',
      )
    : fieldError(
        [...codes.path],
        'payment_method_nonce',
        codes.unknown,
        'Unknown or expired payment_method_nonce.',
      );
}

export function isFieldError(value: Instrument | FieldError): value is FieldError {
  return 'code' in value;
}

/** With `verifyCard`, a card the processor declines fails verification instead of being vaulted. */
export function verificationFailure(instrument: Instrument): Response | null {
  if (!instrument.declines || instrument.kind !== 'credit_card') return null;
  return errorResult('Do Not Honor', [], {
    verification: {
      status: 'processor_declined',
      'processor-response-code': '2000',
      'processor-response-text': 'Do Not Honor',
      'credit-card': cardDetails(instrument, null),
    },
  });
}

export function vault(
  ctx: SandboxContext,
  customerId: string,
  instrument: Instrument,
  makeDefault: boolean,
): PaymentMethodRecord {
  const { store } = ctx;
  const now = store.now();
  const pm: PaymentMethodRecord = {
    ...instrument,
    token: store.newId(store.paymentMethods, 6),
    customerId,
    createdAt: now,
    updatedAt: now,
  };
  store.paymentMethods.set(pm.token, pm);
  const customer = store.customers.get(customerId);
  if (customer && (makeDefault || customer.defaultToken === null)) customer.defaultToken = pm.token;
  return pm;
}

/** Removing a payment method cancels the subscriptions billed to it, as the gateway does. */
export async function removePaymentMethod(ctx: SandboxContext, pm: PaymentMethodRecord): Promise<void> {
  const { store } = ctx;
  store.paymentMethods.delete(pm.token);
  const customer = store.customers.get(pm.customerId);
  if (customer && customer.defaultToken === pm.token) {
    const rest = store.paymentMethodsOf(customer.id);
    customer.defaultToken = rest.length > 0 ? (rest[rest.length - 1]?.token ?? null) : null;
  }
  for (const s of store.subscriptionsOn(pm.token)) {
    if (s.status === 'Canceled' || s.status === 'Expired') continue;
    s.status = 'Canceled';
    s.updatedAt = store.now();
    s.statusHistory.push({
      status: 'Canceled',
      timestamp: s.updatedAt,
      price: s.price,
      balance: s.balance,
      planId: s.planId,
    });
    await ctx.notifySubscription('subscription_canceled', s);
  }
}
