import { randomBytes } from 'node:crypto';
import { crc32 } from 'node:zlib';

/** Which environment a key works in: `tg_live_…` keys in production, `tg_test_…` keys elsewhere. */
export type ApiKeyEnvironment = 'live' | 'test';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
/** 30 base62 characters: 178 bits of randomness. */
const RANDOM_LENGTH = 30;
/** The CRC32 of the random part in base62, left-padded: 6 characters hold any 32-bit value. */
const CHECKSUM_LENGTH = 6;
/** `tg_live_` / `tg_test_`: what secret scanners and the guard look for. */
export const API_KEY_PREFIX = 'tg_';
const SHAPE = /^tg_(live|test)_([0-9A-Za-z]{30})([0-9A-Za-z]{6})$/;

/** `tg_live_` or `tg_test_`. */
export function keyPrefix(environment: ApiKeyEnvironment): string {
  return `${API_KEY_PREFIX}${environment}_`;
}

function base62(value: number, length: number): string {
  let out = '';
  for (let n = value; n > 0; n = Math.floor(n / 62)) out = BASE62[n % 62] + out;
  return out.padStart(length, '0');
}

/**
 * A new key: the environment's prefix, 30 random base62 characters (rejection-sampled from random
 * bytes, so every character is uniform) and the CRC32 of those characters in base62 — the layout
 * of GitHub's tokens, so a scanner can tell a real key from look-alike text without asking us.
 */
export function generateApiKey(environment: ApiKeyEnvironment): string {
  let random = '';
  while (random.length < RANDOM_LENGTH) {
    for (const byte of randomBytes(RANDOM_LENGTH * 2)) {
      // 248 = 4 × 62: bytes above it would favour the first characters.
      if (byte < 248 && random.length < RANDOM_LENGTH) random += BASE62[byte % 62];
    }
  }
  return `${keyPrefix(environment)}${random}${checksumOf(random)}`;
}

function checksumOf(random: string): string {
  return base62(crc32(random), CHECKSUM_LENGTH);
}

/**
 * The key's environment when it has the shape of a Tollgate key and its checksum matches;
 * undefined otherwise. No I/O: the guard refuses a mistyped or made-up key before any lookup.
 */
export function checkApiKey(key: string): ApiKeyEnvironment | undefined {
  const match = SHAPE.exec(key);
  if (!match) return undefined;
  return checksumOf(match[2]!) === match[3] ? (match[1] as ApiKeyEnvironment) : undefined;
}

/** Whether a credential claims to be an API key (the prefix only): such a credential never goes to the JWT verifier. */
export function looksLikeApiKey(credential: string): boolean {
  return credential.startsWith(API_KEY_PREFIX);
}

/** The last four characters, shown in lists beside the prefix (`tg_live_…a1B2`). */
export function lastFour(key: string): string {
  return key.slice(-4);
}
