/**
 * Braintree amounts are decimal strings of the full unit with the currency's ISO 4217 minor unit:
 * "10.00", "1000" in yen, "7.790" in Kuwaiti dinars. The sandbox keeps every amount as an integer
 * count of thousandths of the full unit, whatever the currency, so a discount from the catalog
 * means the same in every subscription.
 */
const AMOUNT = /^\d{1,9}(\.\d{1,3})?$/;

/** Thousandths in one full unit. */
export const UNIT = 1000;

// ISO 4217 currencies without a minor unit, and those with three decimals; every other has two.
const ZERO_DECIMAL = new Set(
  'BIF CLP DJF GNF ISK JPY KMF KRW PYG RWF UGX UYI VND VUV XAF XOF XPF'.split(' '),
);
const THREE_DECIMAL = new Set('BHD IQD JOD KWD LYD OMR TND'.split(' '));

/** Decimals an amount in `currency` has (two when no currency is known). */
export function currencyDigits(currency: string | null | undefined): number {
  const code = (currency ?? 'USD').toUpperCase();
  return ZERO_DECIMAL.has(code) ? 0 : THREE_DECIMAL.has(code) ? 3 : 2;
}

/** Thousandths in the smallest amount of `currency`: 10 for cents, 1000 for yen, 1 for fils. */
const step = (currency: string | null | undefined) => 10 ** (3 - currencyDigits(currency));

/**
 * Parses a client amount (string or number) into thousandths, or null when it is not a valid
 * amount in `currency` (a fraction of a yen, a thousandth of a dollar). Without a currency (a
 * catalog discount), any amount of up to three decimals.
 */
export function parseAmount(value: unknown, currency?: string | null): number | null {
  if (typeof value !== 'string' && typeof value !== 'number') return null;
  const text = typeof value === 'number' ? String(value) : value.trim();
  if (!AMOUNT.test(text)) return null;
  const [whole, fraction = ''] = text.split('.');
  const amount = Number(whole) * UNIT + Number(fraction.padEnd(3, '0'));
  if (currency && amount % step(currency) !== 0) return null;
  return amount;
}

/** Thousandths rounded (half away from zero) to the smallest amount of `currency`. */
export function roundAmount(thousandths: number, currency?: string | null): number {
  const unit = step(currency);
  return Math.sign(thousandths) * Math.round(Math.abs(thousandths) / unit) * unit;
}

/** Thousandths as the gateway writes them in `currency`: "10.50", "1000" for yen, "7.790" for dinars. */
export function formatAmount(thousandths: number, currency?: string | null): string {
  const digits = currencyDigits(currency);
  const abs = Math.abs(roundAmount(thousandths, currency));
  const sign = thousandths < 0 && abs > 0 ? '-' : '';
  const whole = Math.floor(abs / UNIT);
  if (digits === 0) return `${sign}${whole}`;
  const fraction = String(abs % UNIT)
    .padStart(3, '0')
    .slice(0, digits);
  return `${sign}${whole}.${fraction}`;
}
