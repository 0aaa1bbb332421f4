/**
 * Authentication Context Class References this server issues (the ID token's `acr`, the values
 * a client may ask for with `acr_values`): one factor, or two.
 */
export const ACR_ONE_FACTOR = 'urn:tollgate:acr:1fa';
export const ACR_TWO_FACTORS = 'urn:tollgate:acr:2fa';
export const ACR_VALUES_SUPPORTED = [ACR_ONE_FACTOR, ACR_TWO_FACTORS] as const;

/** RFC 8176 methods that count as a factor beside the password. */
const SECOND_FACTORS = new Set(['otp', 'hwk', 'swk', 'sms', 'fpt', 'face']);

/** The `acr` a sign-in with these `amr` methods reached. */
export function acrOf(amr: readonly string[]): string {
  return amr.some((method) => SECOND_FACTORS.has(method)) ? ACR_TWO_FACTORS : ACR_ONE_FACTOR;
}

/**
 * Whether an `acr_values` request asks for two factors that this sign-in did not give (and does
 * not accept what it gave). The values are voluntary (Core §3.1.2.1): anything else is met as is.
 */
export function wantsMoreThan(acrValues: readonly string[], amr: readonly string[]): boolean {
  return acrValues.includes(ACR_TWO_FACTORS) && !acrValues.includes(acrOf(amr));
}

/** The column (`pwd otp`) from the methods; null when unknown. */
export function storedAmr(amr: readonly string[] | null | undefined): string | null {
  return amr?.length ? amr.join(' ') : null;
}

export function readAmr(stored: string | null | undefined): string[] | null {
  return stored ? stored.split(' ') : null;
}
