import { unitScale } from '../objects/money.js';
import type {
  Instrument,
  ModificationRecord,
  ThreeDSecureInfo,
  TransactionRecord,
} from '../store/records.js';
import type { SandboxContext } from './context.js';

export interface ChargeInput {
  amount: number;
  instrument: Instrument;
  token: string | null;
  customerId: string | null;
  currencyIsoCode?: string;
  submitForSettlement: boolean;
  recurring?: boolean;
  orderId?: string | null;
  customFields?: Record<string, string>;
  subscription?: { id: string; planId: string; start: string | null; end: string | null };
  /** The discounts and add-ons a recurring charge applied. */
  modifications?: { discounts: ModificationRecord[]; addOns: ModificationRecord[] };
  at?: string;
  /**
   * The customer is present (a sale, a subscription's first charge): a card that asks for 3-D
   * Secure must have been authenticated. Default: not for recurring charges, yes otherwise.
   */
  customerInitiated?: boolean;
  /** The 3-D Secure outcome of the nonce paid with, and whether the merchant requires success. */
  threeDSecure?: { info: ThreeDSecureInfo | null; required: boolean };
}

/** The result's message for a refused payment, as the gateway words it. */
export const refusalMessage = (t: TransactionRecord): string =>
  t.status === 'gateway_rejected' ? `Gateway Rejected: ${t.gatewayRejectionReason}` : t.processorResponseText;

/** A refused payment: declined by the processor, or rejected by the gateway before it. */
export const refused = (t: TransactionRecord): boolean =>
  t.status === 'processor_declined' || t.status === 'gateway_rejected';

/**
 * The sandbox processor: a declining instrument, or an amount from 2000.00 to 2999.99 (Braintree's
 * sandbox "processor declined" range, code = the whole amount), declines; everything else is approved.
 */
function decide(input: ChargeInput): { code: string; text: string; approved: boolean; rejected?: string } {
  const info = input.threeDSecure?.info ?? null;
  // A failed authentication with 3-D Secure required never reaches the processor.
  if (info && !info.liabilityShifted && input.threeDSecure?.required !== false)
    return { code: '', text: '', approved: false, rejected: 'three_d_secure' };
  const present = input.customerInitiated ?? !input.recurring;
  // Under strong customer authentication the issuer soft-declines what the customer did not authenticate.
  if (input.instrument.threeDSecure === 'challenge' && present && !info?.liabilityShifted)
    return { code: '2099', text: 'Cardholder Authentication Required', approved: false };
  if (input.instrument.declines) return { code: '2000', text: 'Do Not Honor', approved: false };
  const unit = unitScale(input.currencyIsoCode);
  if (input.amount >= 2000 * unit && input.amount < 3000 * unit) {
    const code = String(Math.floor(input.amount / unit));
    return { code, text: code === '2000' ? 'Do Not Honor' : 'Processor Declined', approved: false };
  }
  return { code: '1000', text: 'Approved', approved: true };
}

/** Creates and stores a sale; a decline is stored too, with status `processor_declined`. */
export function charge(ctx: SandboxContext, input: ChargeInput): TransactionRecord {
  const { store } = ctx;
  const at = input.at ?? store.now();
  const outcome = decide(input);
  const t: TransactionRecord = {
    id: store.newId(store.transactions),
    type: 'sale',
    status: outcome.rejected
      ? 'gateway_rejected'
      : !outcome.approved
        ? 'processor_declined'
        : !input.submitForSettlement
          ? 'authorized'
          : ctx.settlement === 'immediate'
            ? 'settled'
            : 'submitted_for_settlement',
    amount: input.amount,
    currencyIsoCode: input.currencyIsoCode ?? 'USD',
    customerId: input.customerId,
    paymentMethodToken: input.token,
    instrument: { ...input.instrument },
    subscriptionId: input.subscription?.id ?? null,
    planId: input.subscription?.planId ?? null,
    billingPeriodStartDate: input.subscription?.start ?? null,
    billingPeriodEndDate: input.subscription?.end ?? null,
    recurring: input.recurring ?? false,
    orderId: input.orderId ?? null,
    customFields: input.customFields ?? {},
    discounts: input.modifications?.discounts.map((m) => ({ ...m })) ?? [],
    addOns: input.modifications?.addOns.map((m) => ({ ...m })) ?? [],
    processorResponseCode: outcome.code,
    processorResponseText: outcome.text,
    processorResponseType: outcome.approved ? 'approved' : 'soft_declined',
    gatewayRejectionReason: outcome.rejected ?? null,
    threeDSecureInfo: input.threeDSecure?.info ?? null,
    settledAt: null,
    createdAt: at,
    updatedAt: at,
  };
  if (t.status === 'settled') t.settledAt = at;
  store.transactions.set(t.id, t);
  return t;
}

/** The sandbox's daily settlement batch: what was submitted on an earlier day is settled now. */
export function settleBatch(ctx: SandboxContext, today: string): void {
  for (const t of ctx.store.transactions.values()) {
    if (t.status === 'submitted_for_settlement' && t.createdAt.slice(0, 10) < today) {
      t.status = 'settled';
      t.settledAt = ctx.store.now();
      t.updatedAt = t.settledAt;
    }
  }
}
