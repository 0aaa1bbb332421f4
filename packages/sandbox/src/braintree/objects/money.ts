/**
 * Braintree amounts are decimal strings of the full unit ("10.00"; "1000" in a currency without a
 * minor unit, such as JPY). The sandbox keeps every amount as an integer count of hundredths of
 * the full unit, whatever the currency.
 */
const AMOUNT = /^\d{1,9}(\.\d{1,2})?$/;

// ISO 4217 currencies without a minor unit (Braintree refuses decimals in them).
const ZERO_DECIMAL = new Set([
  'BIF',
  'CLP',
  'DJF',
  'GNF',
  'JPY',
  'KMF',
  'KRW',
  'MGA',
  'PYG',
  'RWF',
  'UGX',
  'VND',
  'VUV',
  'XAF',
  'XOF',
  'XPF',
]);

const wholeUnits = (currency: string | null | undefined) =>
  ZERO_DECIMAL.has((currency ?? 'USD').toUpperCase());

/**
 * Parses a client amount (string or number) into hundredths, or null when it is not a valid amount
 * in `currency` (a fraction of a yen is not).
 */
export function parseAmount(value: unknown, currency?: string | null): number | null {
  if (typeof value !== 'string' && typeof value !== 'number') return null;
  const text = typeof value === 'number' ? String(value) : value.trim();
  if (!AMOUNT.test(text)) return null;
  const [whole, fraction = ''] = text.split('.');
  if (wholeUnits(currency) && Number(fraction || 0) !== 0) return null;
  return Number(whole) * 100 + Number(fraction.padEnd(2, '0'));
}

/** Hundredths as the gateway writes them in `currency`: "10.50", or "1000" for yen. */
export function formatAmount(cents: number, currency?: string | null): string {
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(Math.round(cents));
  if (wholeUnits(currency)) return `${sign}${Math.round(abs / 100)}`;
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}
