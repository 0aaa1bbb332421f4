import { BillingError } from './errors.js';

/**
 * The spec's limit on `taxPercentage()`: a number from 0 to 100 with at most two decimals. Checked
 * before anything reaches the provider, so a bad model override fails loudly and early.
 */
export function validateTaxPercentage(value: unknown): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0 || value > 100) {
    throw BillingError.invalidTaxPercentage(value);
  }
  if (Math.abs(Math.round(value * 100) - value * 100) > 1e-9) throw BillingError.invalidTaxPercentage(value);
  return Math.round(value * 100) / 100;
}
