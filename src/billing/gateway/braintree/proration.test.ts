import { describe, expect, it } from 'vitest';
import { currencyUnit } from '../../money.js';
import { planCredit, unusedValue } from './proration.js';
import type { BtSubscription } from './types.js';

const usd = currencyUnit('usd');

const paidMonth = (overrides: Partial<BtSubscription> = {}): BtSubscription => ({
  id: 's1',
  planId: 'monthly',
  price: '20.00',
  status: 'Active',
  paymentMethodToken: 'pm1',
  trialPeriod: false,
  currentBillingCycle: 1,
  billingPeriodStartDate: '2026-03-10',
  billingPeriodEndDate: '2026-04-09',
  transactions: [
    {
      id: 't1',
      type: 'sale',
      status: 'submitted_for_settlement',
      amount: '20.00',
      createdAt: '2026-03-10T09:00:00Z',
      subscription: { billingPeriodStartDate: '2026-03-10', billingPeriodEndDate: '2026-04-09' },
    },
    // A declined charge paid nothing.
    {
      id: 't0',
      type: 'sale',
      status: 'processor_declined',
      amount: '20.00',
      createdAt: '2026-03-10T08:00:00Z',
      subscription: { billingPeriodStartDate: '2026-03-10', billingPeriodEndDate: '2026-04-09' },
    },
  ],
  ...overrides,
});

describe('Braintree proration (plan-credit)', () => {
  it('unused value: paid × days left (today included) / days in the period', () => {
    expect(unusedValue(paidMonth(), '2026-03-10', usd)).toBe(2000);
    expect(unusedValue(paidMonth(), '2026-03-20', usd)).toBe(Math.round((2000 * 21) / 31));
    expect(unusedValue(paidMonth(), '2026-04-09', usd)).toBe(Math.round(2000 / 31));
    expect(unusedValue(paidMonth(), '2026-04-10', usd)).toBe(0);
  });

  it('counts the plan credit spent on the period as paid and adds the credit not yet spent; a coupon is no payment', () => {
    const month = paidMonth();
    const withCredit = paidMonth({
      // The month cost 5.00 of credit and 11.00 charged (20.00 less the coupon and the credit).
      transactions: month.transactions?.map((t) => ({ ...t, amount: '11.00' })) ?? null,
      discounts: [
        { id: 'plan-credit', amount: '5.00', numberOfBillingCycles: 4, currentBillingCycle: 1 },
        { id: 'LAUNCH20', amount: '4.00', neverExpires: true, currentBillingCycle: 1 },
      ],
    });
    expect(unusedValue(withCredit, '2026-03-10', usd)).toBe(1100 + 500 + 3 * 500);
    expect(unusedValue(withCredit, '2026-03-20', usd)).toBe(Math.round((1600 * 21) / 31) + 3 * 500);
    // A month the credit paid whole has no transaction; its last credited month has none left after it.
    const creditOnly = paidMonth({
      transactions: [],
      discounts: [{ id: 'plan-credit', amount: '20.00', numberOfBillingCycles: 9, currentBillingCycle: 9 }],
    });
    expect(unusedValue(creditOnly, '2026-03-10', usd)).toBe(2000);
    const creditSpent = paidMonth({
      discounts: [{ id: 'plan-credit', amount: '20.00', numberOfBillingCycles: 9, currentBillingCycle: 10 }],
    });
    expect(unusedValue(creditSpent, '2026-03-10', usd)).toBe(2000);
  });

  it('nothing in a trial or when not active', () => {
    expect(unusedValue(paidMonth({ trialPeriod: true, currentBillingCycle: 0 }), '2026-03-10', usd)).toBe(0);
    expect(unusedValue(paidMonth({ status: 'Past Due' }), '2026-03-10', usd)).toBe(0);
  });

  it('one cycle when the credit fits in a charge, else spread evenly, rounded down to the cent', () => {
    expect(planCredit(1355, 20_000, usd)).toEqual({
      inheritedFromId: 'plan-credit',
      amount: '13.55',
      numberOfBillingCycles: 1,
      neverExpires: false,
    });
    expect(planCredit(15_325, 2000, usd)).toMatchObject({ amount: '19.15', numberOfBillingCycles: 8 });
    expect(planCredit(4000, 2000, usd)).toMatchObject({ amount: '20.00', numberOfBillingCycles: 2 });
    expect(planCredit(0, 2000, usd)).toBeNull();
    expect(planCredit(500, 0, usd)).toBeNull();
  });

  it('credits yen in whole yen: the merchant currency, not dollars', () => {
    const yen = currencyUnit('jpy');
    const month = paidMonth({
      price: '1000',
      transactions: [{ ...paidMonth().transactions![0]!, amount: '1000' }],
    });
    expect(unusedValue(month, '2026-03-10', yen)).toBe(1000);
    expect(planCredit(1355, 1000, yen)).toMatchObject({ amount: '677', numberOfBillingCycles: 2 });
  });
});
