import { addDays, addMonths, dayOfMonth, isoDate } from '../objects/calendar.js';
import { errorResult, type FieldError, fieldError, validationResult } from '../objects/errors.js';
import { parseAmount } from '../objects/money.js';
import { serializeTransaction } from '../objects/transactions.js';
import type { SubscriptionRecord } from '../store/records.js';
import { billPeriod, setStatus } from './billing.js';
import { refusalMessage } from './charges.js';
import type { SandboxContext } from './context.js';
import { applyModifications } from './modifications.js';
import { resolveNonce } from './nonces.js';
import { bool, int, obj, type Params, str } from './params.js';

const PATH = ['subscription'];

/** When billing starts: after a trial, on a future first billing date (Pending), or today. */
function schedule(
  p: Params,
  trial: { on: boolean; duration: number | null; unit: 'day' | 'month' },
  today: string,
  errors: FieldError[],
) {
  if (trial.on) {
    if (trial.duration === null || trial.duration < 1) {
      errors.push(fieldError(PATH, 'trial_duration', '81908', 'Trial Duration is required.'));
      return today;
    }
    return trial.unit === 'month'
      ? addMonths(today, trial.duration, dayOfMonth(today))
      : addDays(today, trial.duration);
  }
  const first = bool(obj(p.options).startImmediately) === true ? null : str(p.firstBillingDate);
  if (first === null) return today;
  const day = first.slice(0, 10);
  if (!/^\d{4}-\d{2}-\d{2}$/.test(day))
    errors.push(fieldError(PATH, 'first_billing_date', '91915', 'First Billing Date is invalid.'));
  else if (day < today)
    errors.push(fieldError(PATH, 'first_billing_date', '91916', 'First Billing Date cannot be in the past.'));
  return day;
}

/**
 * The vaulted method to bill: `paymentMethodToken`, or `paymentMethodNonce` made from a vaulted
 * method (`paymentMethodNonce.create(token)`) — how Braintree takes a 3-D Secure verified payment
 * for a subscription's first charge. A nonce for a card not in the vault is refused (91927).
 */
function paymentMethodOf(ctx: SandboxContext, p: Params, errors: FieldError[]) {
  const nonce = str(p.paymentMethodNonce);
  if (nonce === null) {
    const pm = ctx.store.paymentMethods.get(str(p.paymentMethodToken) ?? '');
    if (!pm)
      errors.push(fieldError(PATH, 'payment_method_token', '91903', 'Payment method token is invalid.'));
    return { pm, threeDSecureInfo: null };
  }
  const found = resolveNonce(nonce, ctx.store.nonces);
  const pm = found.ok ? ctx.store.paymentMethods.get(found.token ?? '') : undefined;
  if (!found.ok)
    errors.push(fieldError(PATH, 'payment_method_nonce', '91925', 'Payment method nonce is invalid.'));
  else if (!pm)
    errors.push(
      fieldError(
        PATH,
        'payment_method_nonce',
        '91927',
        'Payment method nonce represents an un-vaulted payment instrument.',
      ),
    );
  return { pm, threeDSecureInfo: found.ok ? found.threeDSecureInfo : null };
}

/** `subscription.create` (Braintree "Subscription: Create"). */
export async function createSubscription(
  ctx: SandboxContext,
  p: Params,
): Promise<SubscriptionRecord | Response> {
  const { store } = ctx;
  const errors: FieldError[] = [];
  const plan = store.plans.get(str(p.planId) ?? '');
  if (!plan) errors.push(fieldError(PATH, 'plan_id', '91904', 'Plan ID is invalid.'));
  const { pm, threeDSecureInfo } = paymentMethodOf(ctx, p, errors);
  const currency = plan?.currencyIsoCode ?? ctx.currencyIsoCode;
  const price = 'price' in p ? parseAmount(p.price, currency) : parseAmount(plan?.price, currency);
  if (price === null && plan) errors.push(fieldError(PATH, 'price', '81904', 'Price is an invalid format.'));
  const today = isoDate(store.clock.now());
  // `options.startImmediately` skips a trial the plan would otherwise give (an explicit trialPeriod wins).
  const startNow = bool(obj(p.options).startImmediately) === true;
  const trialOn = bool(p.trialPeriod) ?? (startNow ? false : (plan?.trialPeriod ?? false));
  const trial = {
    on: trialOn,
    duration: int(p.trialDuration) ?? (trialOn ? (plan?.trialDuration ?? null) : null),
    unit:
      (str(p.trialDurationUnit) ?? plan?.trialDurationUnit ?? 'day') === 'month'
        ? ('month' as const)
        : ('day' as const),
  };
  const firstBillingDate = schedule(p, trial, today, errors);
  const discounts = applyModifications('discounts', [], p.discounts, store.discounts, errors, currency);
  const addOns = applyModifications('add-ons', [], p.addOns, store.addOns, errors, currency);
  const id = str(p.id) ?? store.newId(store.subscriptions, 6);
  if (store.subscriptions.has(id)) errors.push(fieldError(PATH, 'id', '81902', 'ID has already been taken.'));
  if (errors.length > 0 || !plan || !pm || price === null) return validationResult(errors);

  const now = store.now();
  const numberOfBillingCycles =
    'numberOfBillingCycles' in p ? int(p.numberOfBillingCycles) : (plan.numberOfBillingCycles ?? null);
  const s: SubscriptionRecord = {
    id,
    planId: plan.id,
    billingFrequency: plan.billingFrequency,
    price,
    currencyIsoCode: currency,
    paymentMethodToken: pm.token,
    status: firstBillingDate > today && !trial.on ? 'Pending' : 'Active',
    trialPeriod: trial.on,
    trialDuration: trial.on ? trial.duration : null,
    trialDurationUnit: trial.on ? trial.unit : null,
    firstBillingDate,
    nextBillingDate: firstBillingDate,
    billingPeriodStartDate: null,
    billingPeriodEndDate: null,
    paidThroughDate: null,
    billingDayOfMonth: int(p.billingDayOfMonth) ?? dayOfMonth(firstBillingDate),
    balance: 0,
    failureCount: 0,
    pastDueSince: null,
    nextRetryDate: null,
    currentBillingCycle: 0,
    neverExpires: bool(p.neverExpires) ?? numberOfBillingCycles === null,
    numberOfBillingCycles,
    discounts,
    addOns,
    transactionIds: [],
    statusHistory: [],
    createdAt: now,
    updatedAt: now,
  };
  if (firstBillingDate === today && !trial.on) {
    const threeDSecure = obj(obj(p.options).threeDSecure);
    const outcome = billPeriod(ctx, s, today, undefined, {
      customerInitiated: true,
      threeDSecure: { info: threeDSecureInfo, required: bool(threeDSecure.required) !== false },
    });
    // The gateway refuses to create a subscription whose first charge fails, and says why.
    if (!outcome.ok) {
      outcome.transaction.subscriptionId = null;
      const t = outcome.transaction;
      return errorResult(refusalMessage(t), [], { transaction: serializeTransaction(store, t) });
    }
  }
  setStatus(ctx, s, s.status, now);
  store.subscriptions.set(s.id, s);
  if (s.currentBillingCycle > 0) await ctx.notifySubscription('subscription_charged_successfully', s);
  return s;
}
