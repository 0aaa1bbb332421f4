import { createLocalJWKSet, jwtVerify } from 'jose';
import type { SigningKeys } from '../keys/signing-keys.js';

/** What an `id_token_hint` tells the logout endpoint. */
export interface IdTokenHint {
  sub: string;
  clientId: string;
  sid: string | null;
}

/**
 * RP-Initiated Logout §2: an ID token this server issued (its signature by one of the keys of the
 * JWKS, its issuer), expired or not — the hint is the client saying who was logged in. Anything
 * else (another signer, `alg: none`, a changed payload) is undefined.
 */
export async function verifyIdTokenHint(
  hint: string,
  keys: SigningKeys,
  issuer: string,
): Promise<IdTokenHint | undefined> {
  try {
    const jwks = createLocalJWKSet(await keys.jwks());
    // An ID token is short-lived; a logout may come long after it expired.
    const { payload } = await jwtVerify(hint, jwks, { issuer, clockTolerance: Number.MAX_SAFE_INTEGER });
    const audience = Array.isArray(payload.aud) ? payload.aud[0] : payload.aud;
    if (typeof payload.sub !== 'string' || typeof audience !== 'string') return undefined;
    return {
      sub: payload.sub,
      clientId: audience,
      sid: typeof payload.sid === 'string' ? payload.sid : null,
    };
  } catch {
    return undefined;
  }
}
