import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** A 256-bit random secret, base64url: authorization codes, refresh tokens, client secrets. */
export function randomSecret(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}

/** A random identifier for a stored row (access token id = the JWT's `jti`). */
export function randomId(bytes = 20): string {
  return randomBytes(bytes).toString('hex');
}

/**
 * SHA-256, hex. A fast hash is enough for 256-bit random secrets (nothing to brute-force), and it
 * keeps the token endpoint fast; user passwords use argon2id instead (DESIGN.md "Tokens").
 */
export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}

/** Constant-time comparison of two hex digests (or any two strings). */
export function safeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  if (left.length !== right.length) {
    // Still spend the time of a comparison, so a length mismatch is not faster.
    timingSafeEqual(left, left);
    return false;
  }
  return timingSafeEqual(left, right);
}

/** Whether `secret` hashes to `hash`, in constant time. */
export function secretMatches(secret: string, hash: string): boolean {
  return safeEqual(hashSecret(secret), hash);
}
