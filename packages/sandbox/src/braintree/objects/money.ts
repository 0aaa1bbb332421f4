/**
 * Braintree amounts are decimal strings of the full unit with the currency's ISO 4217 minor unit:
 * "10.00", "1000" in yen, "7.790" in Kuwaiti dinars. The sandbox keeps every amount as an integer
 * count of hundredths of the full unit, thousandths in a three-decimal currency.
 */
const AMOUNT = /^\d{1,9}(\.\d{1,3})?$/;

// ISO 4217 currencies without a minor unit, and those with three decimals; every other has two.
const ZERO_DECIMAL = new Set(
  'BIF CLP DJF GNF ISK JPY KMF KRW PYG RWF UGX UYI VND VUV XAF XOF XPF'.split(' '),
);
const THREE_DECIMAL = new Set('BHD IQD JOD KWD LYD OMR TND'.split(' '));

/** Decimals an amount in `currency` has (USD when none is given). */
export function currencyDigits(currency: string | null | undefined): number {
  const code = (currency ?? 'USD').toUpperCase();
  return ZERO_DECIMAL.has(code) ? 0 : THREE_DECIMAL.has(code) ? 3 : 2;
}

/** The sandbox's integers in one full unit of `currency`: 100, or 1000 in a three-decimal currency. */
export function unitScale(currency: string | null | undefined): number {
  return currencyDigits(currency) === 3 ? 1000 : 100;
}

/** The sandbox's integers in the smallest amount of `currency`: 1 (a cent, a fil), 100 (a yen). */
const smallest = (currency: string | null | undefined) =>
  unitScale(currency) / 10 ** currencyDigits(currency);

/**
 * Parses a client amount (string or number) in `currency`, or null when it is not a valid amount
 * there (a fraction of a yen, a thousandth of a dollar).
 */
export function parseAmount(value: unknown, currency?: string | null): number | null {
  if (typeof value !== 'string' && typeof value !== 'number') return null;
  const text = typeof value === 'number' ? String(value) : value.trim();
  if (!AMOUNT.test(text)) return null;
  const [whole, fraction = ''] = text.split('.');
  const thousandths = Number(whole) * 1000 + Number(fraction.padEnd(3, '0'));
  const perThousandth = 1000 / unitScale(currency);
  if (thousandths % (perThousandth * smallest(currency)) !== 0) return null;
  return thousandths / perThousandth;
}

/** An amount rounded (half away from zero) to the smallest amount of `currency`. */
export function roundAmount(amount: number, currency?: string | null): number {
  const step = smallest(currency);
  return Math.sign(amount) * Math.round(Math.abs(amount) / step) * step;
}

/** An amount as the gateway writes it in `currency`: "10.50", "1000" for yen, "7.790" for dinars. */
export function formatAmount(amount: number, currency?: string | null): string {
  const digits = currencyDigits(currency);
  const scale = unitScale(currency);
  const abs = Math.abs(roundAmount(amount, currency));
  const sign = amount < 0 && abs > 0 ? '-' : '';
  const whole = Math.floor(abs / scale);
  if (digits === 0) return `${sign}${whole}`;
  return `${sign}${whole}.${String(abs % scale).padStart(digits, '0')}`;
}
