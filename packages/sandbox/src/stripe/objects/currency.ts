import { StripeSandboxError } from './errors.js';

/**
 * How Stripe counts each currency's `amount` (https://docs.stripe.com/currencies): in the smallest
 * unit, none in the zero-decimal currencies, thousandths in the three-decimal ones (whose last digit
 * must be 0), and hundredths of ISK and UGX that must be whole krónur and shillings.
 */
const ZERO_DECIMAL = new Set('bif clp djf gnf jpy kmf krw mga pyg rwf vnd vuv xaf xof xpf'.split(' '));
const THREE_DECIMAL = new Set('bhd jod kwd omr tnd'.split(' '));
// Zero-decimal in fact, two-decimal in the API for backwards compatibility (Stripe's special cases).
const WHOLE_HUNDREDTHS = new Set(['isk', 'ugx']);

/** Decimals of `amount` in `currency`: 0 (jpy), 2 (usd, isk) or 3 (kwd). */
export function amountDecimals(currency: string): number {
  const code = currency.toLowerCase();
  return ZERO_DECIMAL.has(code) ? 0 : THREE_DECIMAL.has(code) ? 3 : 2;
}

/** Decimals Stripe shows: as `amountDecimals`, but none for ISK and UGX. */
function shownDecimals(currency: string): number {
  return WHOLE_HUNDREDTHS.has(currency.toLowerCase()) ? 0 : amountDecimals(currency);
}

/** The full-unit number an `amount` is: 1050 usd → "10.50", 7790 kwd → "7.790", 500 isk → "5". */
export function majorAmount(amount: number, currency: string): string {
  return (amount / 10 ** amountDecimals(currency)).toFixed(shownDecimals(currency));
}

/** Refuses an `amount` Stripe cannot charge in `currency`, with Stripe's explanation. */
export function assertChargeable(amount: number, currency: string): void {
  const code = currency.toLowerCase();
  if (WHOLE_HUNDREDTHS.has(code) && amount % 100 !== 0)
    throw StripeSandboxError.invalid(
      `Invalid amount. Currency ${code.toUpperCase()} has become effectively zero-decimal and charged amounts must be evenly divisible by 100. See https://stripe.com/docs/currencies#zero-decimal for more information.`,
      'amount',
      'amount_invalid',
    );
  if (THREE_DECIMAL.has(code) && amount % 10 !== 0)
    throw StripeSandboxError.invalid(
      `Invalid amount. Currency ${code.toUpperCase()} is a three-decimal currency whose amounts must be rounded to the nearest ten (the last digit must be 0). See https://stripe.com/docs/currencies#three-decimal for more information.`,
      'amount',
      'amount_invalid',
    );
}
