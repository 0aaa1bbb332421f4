import { daysBetween, isoDate } from '../objects/calendar.js';
import { errorResult, type FieldError, fieldError, validationResult } from '../objects/errors.js';
import { parseAmount, roundAmount } from '../objects/money.js';
import { recurringAmount } from '../objects/subscriptions.js';
import { serializeTransaction } from '../objects/transactions.js';
import type { SubscriptionRecord } from '../store/records.js';
import { setStatus } from './billing.js';
import { charge } from './charges.js';
import type { SandboxContext } from './context.js';
import { applyModifications } from './modifications.js';
import { bool, int, obj, type Params, str } from './params.js';

const PATH = ['subscription'];

/** The part of the current period still to run, for proration: remaining days / period days. */
function remainingShare(s: SubscriptionRecord, today: string): number {
  if (!s.billingPeriodStartDate || !s.billingPeriodEndDate) return 0;
  const total = daysBetween(s.billingPeriodStartDate, s.billingPeriodEndDate) + 1;
  const left = daysBetween(today, s.billingPeriodEndDate) + 1;
  return Math.min(1, Math.max(0, left / total));
}

/**
 * Braintree edits only Pending and Active subscriptions' prices: on a Past Due one a new plan or
 * price is refused (91920) and so are discount and add-on changes (92022); its payment method,
 * billing cycles and id may still change.
 */
function pastDueRefusal(s: SubscriptionRecord, p: Params): FieldError | null {
  if (s.status !== 'Past Due') return null;
  const newPlan = 'planId' in p && str(p.planId) !== s.planId;
  const newPrice = 'price' in p && parseAmount(p.price, s.currencyIsoCode) !== s.price;
  if (newPlan || newPrice)
    return fieldError(
      PATH,
      newPlan ? 'plan_id' : 'price',
      '91920',
      'Cannot edit price changing fields on past due subscription.',
    );
  const edits = (list: unknown) =>
    ['add', 'update', 'remove'].some((key) => {
      const value = obj(list)[key];
      return Array.isArray(value) ? value.length > 0 : value !== undefined && value !== null;
    });
  if (edits(p.discounts) || edits(p.addOns))
    return fieldError(
      [...PATH, edits(p.discounts) ? 'discounts' : 'add-ons'],
      'base',
      '92022',
      'Cannot edit modifications on past due subscription.',
    );
  return null;
}

/**
 * `subscription.update` (Braintree "Subscription: Update"). A plan of another billing frequency is
 * refused (91922) — that is why Cashier cancels and re-creates with the `plan-credit` discount.
 * With `options.prorateCharges`, a higher amount is charged now for the rest of the period and a
 * lower one is credited to the balance.
 */
export async function updateSubscription(
  ctx: SandboxContext,
  s: SubscriptionRecord,
  p: Params,
): Promise<Response | null> {
  const { store } = ctx;
  const errors: FieldError[] = [];
  if (s.status === 'Canceled')
    return validationResult([
      fieldError(PATH, 'status', '81901', 'Subscription has been canceled and cannot be updated.'),
    ]);
  if (s.status === 'Expired')
    return validationResult([
      fieldError(PATH, 'status', '81910', 'Subscription has expired and cannot be updated.'),
    ]);
  const pastDue = pastDueRefusal(s, p);
  if (pastDue) return validationResult([pastDue]);
  const plan = 'planId' in p ? store.plans.get(str(p.planId) ?? '') : store.plans.get(s.planId);
  if (!plan) errors.push(fieldError(PATH, 'plan_id', '91904', 'Plan ID is invalid.'));
  else if (plan.billingFrequency !== s.billingFrequency) {
    errors.push(
      fieldError(
        PATH,
        'plan_id',
        '91922',
        'Cannot update subscription to a plan with a different billing frequency.',
      ),
    );
  }
  const price = 'price' in p ? parseAmount(p.price, s.currencyIsoCode) : s.price;
  if (price === null) errors.push(fieldError(PATH, 'price', '81904', 'Price is an invalid format.'));
  const token = 'paymentMethodToken' in p ? str(p.paymentMethodToken) : s.paymentMethodToken;
  const pm = store.paymentMethods.get(token ?? '');
  if (!pm) errors.push(fieldError(PATH, 'payment_method_token', '91903', 'Payment method token is invalid.'));
  const discounts = applyModifications(
    'discounts',
    s.discounts,
    p.discounts,
    store.discounts,
    errors,
    s.currencyIsoCode,
  );
  const addOns = applyModifications('add-ons', s.addOns, p.addOns, store.addOns, errors, s.currencyIsoCode);
  if (errors.length > 0 || !plan || !pm || price === null) return validationResult(errors);

  const before = recurringAmount(s);
  const draft: SubscriptionRecord = {
    ...s,
    planId: plan.id,
    price,
    paymentMethodToken: pm.token,
    discounts,
    addOns,
  };
  if ('neverExpires' in p || 'numberOfBillingCycles' in p) {
    draft.numberOfBillingCycles = int(p.numberOfBillingCycles);
    draft.neverExpires = bool(p.neverExpires) ?? draft.numberOfBillingCycles === null;
    if (draft.neverExpires) draft.numberOfBillingCycles = null;
  }
  const options = obj(p.options);
  const today = isoDate(store.clock.now());
  const delta = roundAmount((recurringAmount(draft) - before) * remainingShare(s, today), s.currencyIsoCode);
  if (bool(options.prorateCharges) === true && s.status === 'Active' && delta !== 0) {
    if (delta < 0) draft.balance += delta;
    else {
      const t = charge(ctx, {
        amount: delta,
        instrument: pm,
        token: pm.token,
        customerId: pm.customerId,
        currencyIsoCode: s.currencyIsoCode,
        submitForSettlement: true,
        // Merchant-initiated: the customer authenticated the subscription when it started.
        customerInitiated: false,
        subscription: {
          id: s.id,
          planId: plan.id,
          start: s.billingPeriodStartDate,
          end: s.billingPeriodEndDate,
        },
      });
      draft.transactionIds = [...s.transactionIds, t.id];
      if (t.status === 'processor_declined' && bool(options.revertSubscriptionOnProrationFailure) !== false) {
        s.transactionIds.push(t.id);
        return errorResult(t.processorResponseText, [], { transaction: serializeTransaction(store, t) });
      }
    }
  }
  Object.assign(s, draft, { updatedAt: store.now() });
  return null;
}

/** `subscription.cancel`: immediate, final, and announced with `subscription_canceled`. */
export async function cancelSubscription(
  ctx: SandboxContext,
  s: SubscriptionRecord,
): Promise<Response | null> {
  if (s.status === 'Canceled')
    return validationResult([fieldError(PATH, 'status', '81905', 'Subscription has already been canceled.')]);
  s.nextRetryDate = null;
  setStatus(ctx, s, 'Canceled');
  await ctx.notifySubscription('subscription_canceled', s);
  return null;
}
