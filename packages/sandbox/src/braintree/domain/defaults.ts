import type { SandboxDiscount, SandboxPlan } from '../store/records.js';

/** Plans used when none are given: a monthly and a yearly one, like Cashier's Braintree docs. */
export const DEFAULT_PLANS: SandboxPlan[] = [
  { id: 'monthly', name: 'Monthly', price: '10.00', billingFrequency: 1, currencyIsoCode: 'USD' },
  { id: 'yearly', name: 'Yearly', price: '100.00', billingFrequency: 12, currencyIsoCode: 'USD' },
];

/**
 * Cashier for Braintree needs a `plan-credit` discount at the provider to prorate a swap between
 * yearly and monthly billing; its amount is overridden each time it is applied.
 */
export const PLAN_CREDIT: SandboxDiscount = {
  id: 'plan-credit',
  name: 'Plan credit',
  amount: '1.00',
  neverExpires: false,
  numberOfBillingCycles: 1,
};

export function withPlanCredit(discounts: SandboxDiscount[] | undefined): SandboxDiscount[] {
  const list = [...(discounts ?? [])];
  if (!list.some((d) => d.id === PLAN_CREDIT.id)) list.push(PLAN_CREDIT);
  return list;
}

export const DEFAULT_CREDENTIALS = {
  merchantId: 'tollgate_sandbox',
  publicKey: 'sandbox_public_key',
  privateKey: 'sandbox_private_key',
};

export const DEFAULT_RETRY = { attempts: 3, intervalDays: 5 };
