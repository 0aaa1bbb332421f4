import { code as iso4217 } from 'currency-codes';

/**
 * How a currency's amounts are written, from one table: ISO 4217's minor unit (SIX's list, as the
 * `currency-codes` package ships it) with the exceptions Stripe documents
 * (https://docs.stripe.com/currencies#zero-decimal, #three-decimal, #special-cases). Braintree
 * writes amounts with the ISO 4217 minor unit ("7.790" dinars, "1000" yen).
 *
 * Not `Intl.NumberFormat`'s digits: those are CLDR's display conventions, which drop the minor unit
 * of HUF, COP, IDR, PKR, LBP and others (0 instead of ISO's 2) while both providers charge them in
 * hundredths — a forint price would be off by a hundred.
 */
export interface Currency {
  /** Lower-case ISO 4217 code. */
  readonly code: string;
  /**
   * The decimals shown, and those of a Braintree amount: ISO 4217's minor unit, or fewer where
   * Stripe counts fewer (MGA: whole ariary).
   */
  readonly digits: number;
  /**
   * The decimals of the integers amounts are kept in, which are Stripe's `amount`: `digits`,
   * except where Stripe keeps two (ISK, UGX) or none (MGA).
   */
  readonly exponent: number;
  /**
   * Stripe takes only multiples of this in a charged amount: 10 in a three-decimal currency (the
   * last digit must be 0), 100 in ISK and UGX (whole krónur and shillings), 1 otherwise.
   */
  readonly step: number;
}

// Stripe's zero-decimal list, where ISO 4217 still has a minor unit.
const STRIPE_ZERO_DECIMAL = new Set(['mga']);
// Zero-decimal in ISO 4217, but Stripe keeps them two-decimal with `00` for backwards compatibility.
const STRIPE_WHOLE_HUNDREDTHS = new Set(['isk', 'ugx']);

const cache = new Map<string, Currency>();

/** `currency('kwd')` → `{ digits: 3, exponent: 3, step: 10 }`; an unknown code is two-decimal. */
export function currency(code: string): Currency {
  const key = code.toLowerCase();
  let found = cache.get(key);
  if (!found) {
    found = Object.freeze(describe(key));
    cache.set(key, found);
  }
  return found;
}

function describe(code: string): Currency {
  // A code ISO 4217 no longer lists (Stripe still takes STD) is two-decimal, as Stripe treats it.
  const digits = iso4217(code)?.digits ?? 2;
  if (STRIPE_WHOLE_HUNDREDTHS.has(code)) return { code, digits, exponent: 2, step: 100 };
  if (STRIPE_ZERO_DECIMAL.has(code)) return { code, digits: 0, exponent: 0, step: 1 };
  return { code, digits, exponent: digits, step: digits === 3 ? 10 : 1 };
}
