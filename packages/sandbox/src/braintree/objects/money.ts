/** Braintree amounts are decimal strings of the full unit ("10.00"); the sandbox keeps integer cents. */
const AMOUNT = /^\d{1,9}(\.\d{1,2})?$/;

/** Parses a client amount (string or number) into cents, or null when it is not a valid amount. */
export function parseAmount(value: unknown): number | null {
  if (typeof value !== 'string' && typeof value !== 'number') return null;
  const text = typeof value === 'number' ? String(value) : value.trim();
  if (!AMOUNT.test(text)) return null;
  const [whole, fraction = ''] = text.split('.');
  return Number(whole) * 100 + Number(fraction.padEnd(2, '0'));
}

export function formatAmount(cents: number): string {
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(Math.round(cents));
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}
