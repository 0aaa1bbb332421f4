import { randomInt } from 'node:crypto';
import { hashSecret } from '../secrets.js';

/**
 * RFC 8628 §6.1's base-20 consonants: no vowels (no words spelt by chance), no digits, so nothing
 * that looks like something else (0/O, 1/I/L, 5/S, 8/B). Eight of them: 20^8 ≈ 2.6 × 10^10
 * codes, against a handful of guesses a minute (`oauth.throttle.device`) for a few minutes.
 */
const ALPHABET = 'BCDFGHJKLMNPQRSTVWXZ';
const LENGTH = 8;

/** A new user code as shown to people: `WDJB-MJHT`. */
export function generateUserCode(): string {
  let code = '';
  for (let i = 0; i < LENGTH; i++) code += ALPHABET[randomInt(ALPHABET.length)];
  return `${code.slice(0, 4)}-${code.slice(4)}`;
}

/**
 * A typed user code in its canonical form — upper case, without the dash or spaces (§6.1:
 * "case-insensitive, and ignore any punctuation") — or undefined when it cannot be one.
 */
export function normalizeUserCode(input: string): string | undefined {
  const code = input.toUpperCase().replace(/[\s-]/g, '');
  if (code.length !== LENGTH) return undefined;
  for (const char of code) if (!ALPHABET.includes(char)) return undefined;
  return code;
}

/** What is stored for a user code: the digest of its canonical form. */
export function userCodeHash(canonical: string): string {
  return hashSecret(canonical);
}

/** The canonical form as shown to people again: `WDJBMJHT` → `WDJB-MJHT`. */
export function formatUserCode(canonical: string): string {
  return `${canonical.slice(0, 4)}-${canonical.slice(4)}`;
}
