import { ConfigurationError } from '../core/errors.js';
import type { BillingConfig } from './config.js';
import { currency } from './currencies.js';

/**
 * Refuses, at boot, a plan or coupon amount the edition's provider cannot charge as written: a
 * number is minor units (`7790` fils is KD 7.790) and, in the Stripe edition, a multiple of the
 * currency's step (ten fils, a hundred ISK hundredths); a string is the full unit with no more
 * decimals than the currency has (`"7.790"`, never `"1000.5"` yen).
 */
export function checkCatalogAmounts(billing: BillingConfig): void {
  const rule = currency(billing.currency);
  const code = rule.code.toUpperCase();
  // Stripe's step, or in Braintree the minor units a written decimal can hold (whole ISK hundredths).
  const step = billing.edition === 'stripe' ? rule.step : 10 ** (rule.exponent - rule.digits);
  const entries = [
    ...billing.plans.map((p) => [`billing.plans[${p.id}].amount`, p.amount] as const),
    ...billing.coupons.flatMap((c) =>
      c.amountOff === undefined ? [] : [[`billing.coupons[${c.id}].amountOff`, c.amountOff] as const],
    ),
  ];
  for (const [name, amount] of entries) {
    if (typeof amount === 'number') {
      if (!Number.isInteger(amount) || amount < 0 || amount % step !== 0)
        throw new ConfigurationError(
          `${name} is ${amount}: amounts are whole minor units of ${code}${step > 1 ? `, in multiples of ${step}` : ''} (${billing.edition} cannot charge it as written).`,
        );
    } else if (!decimalPattern(rule.digits).test(amount.trim()))
      throw new ConfigurationError(
        `${name} is "${amount}": a decimal amount of ${code} has at most ${rule.digits} decimals.`,
      );
  }
}

/** `10`, `10.5`, `10.50` with up to `digits` decimals that count (`1000.00` yen is whole). */
function decimalPattern(digits: number): RegExp {
  return new RegExp(`^\\d+(\\.\\d{0,${digits}}0*)?$`);
}
