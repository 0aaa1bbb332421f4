import { Secret, TOTP } from 'otpauth';

/** RFC 6238 as every authenticator app reads it: SHA-1, 6 digits, 30-second steps. */
const PERIOD = 30;

function totp(seed: string, label = '', issuer = ''): TOTP {
  return new TOTP({
    issuer,
    label,
    secret: Secret.fromBase32(seed),
    algorithm: 'SHA1',
    digits: 6,
    period: PERIOD,
  });
}

/** A new seed: 160 random bits (RFC 4226's recommendation), base32 as apps take it by hand. */
export function newSeed(): string {
  return new Secret({ size: 20 }).base32;
}

/** The `otpauth://totp/…` URI an app scans from the QR code. */
export function otpauthUri(seed: string, label: string, issuer: string): string {
  return totp(seed, label, issuer).toString();
}

/**
 * The time step `code` belongs to, allowing one step of clock drift either way; null when the code
 * is not one of them. The caller accepts each step once (no replay inside the window).
 */
export function stepOf(seed: string, code: string, at: Date): number | null {
  const timestamp = at.getTime();
  const delta = totp(seed).validate({ token: code, timestamp, window: 1 });
  return delta === null ? null : TOTP.counter({ period: PERIOD, timestamp }) + delta;
}

/** The code of the step at `at` (tests, and the operator's `tollgate` check). */
export function codeAt(seed: string, at: Date): string {
  return totp(seed).generate({ timestamp: at.getTime() });
}
