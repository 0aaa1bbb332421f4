import type { Instrument, ModificationRecord, TransactionRecord } from '../store/records.js';
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
}

/**
 * The sandbox processor: a declining instrument, or an amount from 2000.00 to 2999.99 (Braintree's
 * sandbox "processor declined" range, code = the whole amount), declines; everything else is approved.
 */
function decide(input: ChargeInput): { code: string; text: string; approved: boolean } {
  if (input.instrument.declines) return { code: '2000', text: 'Do Not Honor', approved: false };
  if (input.amount >= 200_000 && input.amount < 300_000) {
    const code = String(Math.floor(input.amount / 100));
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
    status: !outcome.approved
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
