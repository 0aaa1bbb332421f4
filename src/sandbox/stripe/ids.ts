import { randomBytes } from 'node:crypto';

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** Random alphanumerics, as in Stripe ids (`cus_Q2x…`). */
export function randomChars(length: number, alphabet = ALPHABET): string {
  const bytes = randomBytes(length);
  let out = '';
  for (const byte of bytes) out += alphabet[byte % alphabet.length];
  return out;
}

/** A new object id with Stripe's prefix convention (`cus_`, `sub_`, `in_`, `ch_`, …). */
export function newId(prefix: string): string {
  return `${prefix}_${randomChars(24)}`;
}
