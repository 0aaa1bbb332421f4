import { currency as currencyOf } from './currencies.js';

/**
 * Money for display and for providers that speak the full unit. Amounts inside the billing layer
 * are integers in the currency's minor unit as Stripe counts it (`currencies.ts`: cents, whole yen,
 * fils of a dinar); Braintree's decimal strings are converted at its edge.
 */

/** `1999` → `$19.99` for `usd`/`$`, `7790` → `KD7.790` for `kwd`; negative amounts get a leading minus. */
export function formatMoney(minor: number, currency: string, symbol: string): string {
  const { digits, exponent } = currencyOf(currency);
  const major = Math.abs(minor) / 10 ** exponent;
  const text = major.toLocaleString('en-US', {
    minimumFractionDigits: digits,
    maximumFractionDigits: digits,
  });
  return `${minor < 0 ? '-' : ''}${symbol}${text}`;
}

/** A full-unit decimal (`"10.50"`, `10.5`) in minor units (`1050`; `"7.79"` dinars → `7790`). */
export function toMinor(major: number | string, currency: string): number {
  return Math.round(Number(major) * 10 ** currencyOf(currency).exponent);
}

/** Minor units (`1050`) as the full-unit decimal string a provider expects (`"10.50"`, `"7.790"`). */
export function toMajor(minor: number, currency: string): string {
  const { digits, exponent } = currencyOf(currency);
  return (minor / 10 ** exponent).toFixed(digits);
}

/** Conversions bound to one currency, for an adapter whose API speaks the full unit. */
export interface CurrencyUnit {
  /** Lower-case ISO 4217 code. */
  readonly code: string;
  /** A full-unit decimal (`"10.50"`; `"1000"` in yen) in minor units; a missing amount is 0. */
  minor(major: number | string | null | undefined): number;
  /** Minor units as the full-unit decimal string (`"10.50"`; `"1000"` in yen). */
  major(minor: number): string;
}

/** `currencyUnit('jpy').minor('1000')` → 1000; `currencyUnit('usd').minor('10.00')` → 1000. */
export function currencyUnit(currency: string): CurrencyUnit {
  const code = currency.toLowerCase();
  return Object.freeze({
    code,
    minor: (major: number | string | null | undefined) => toMinor(major ?? '0', code),
    major: (minor: number) => toMajor(minor, code),
  });
}
