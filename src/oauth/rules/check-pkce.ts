import { createHash } from 'node:crypto';
import { OAuthError } from '../errors.js';
import { safeEqual } from '../secrets.js';

export type CodeChallengeMethod = 'S256' | 'plain';

/** RFC 7636 §4.1/§4.2: 43–128 characters of [A-Z a-z 0-9 - . _ ~]. */
const PKCE_VALUE = /^[A-Za-z0-9\-._~]{43,128}$/;

/**
 * Checks the authorization request's PKCE parameters (RFC 7636 §4.3). A public client must send
 * a challenge (RFC 9700 §2.1.1); `plain` only when the application allows it.
 */
export function checkCodeChallenge(
  params: { codeChallenge?: string | undefined; codeChallengeMethod?: string | undefined },
  options: { publicClient: boolean; allowPlain: boolean },
): { codeChallenge: string; codeChallengeMethod: CodeChallengeMethod } | undefined {
  const { codeChallenge, codeChallengeMethod } = params;
  if (!codeChallenge) {
    if (codeChallengeMethod) {
      throw OAuthError.invalidRequest('code_challenge_method was sent without a code_challenge.', {
        redirectable: true,
      });
    }
    if (options.publicClient) {
      throw OAuthError.invalidRequest('A public client must use PKCE: send a code_challenge (S256).', {
        redirectable: true,
      });
    }
    return undefined;
  }
  // RFC 7636 §4.3: the method defaults to plain when absent.
  const method = codeChallengeMethod || 'plain';
  if (method !== 'S256' && method !== 'plain') {
    throw OAuthError.invalidRequest('code_challenge_method must be S256.', { redirectable: true });
  }
  if (method === 'plain' && !options.allowPlain) {
    throw OAuthError.invalidRequest('The plain code_challenge_method is not allowed; use S256.', {
      redirectable: true,
    });
  }
  if (!PKCE_VALUE.test(codeChallenge)) {
    throw OAuthError.invalidRequest('The code_challenge is malformed.', { redirectable: true });
  }
  return { codeChallenge, codeChallengeMethod: method };
}

/**
 * RFC 7636 §4.6 at the token endpoint. A verifier without a stored challenge is refused too: it
 * is the PKCE downgrade of RFC 9700 §4.8.2.
 */
export function verifyCodeVerifier(
  stored: { codeChallenge: string | null; codeChallengeMethod: CodeChallengeMethod | null },
  verifier: string | undefined,
): void {
  if (!stored.codeChallenge) {
    if (verifier !== undefined) {
      throw OAuthError.invalidGrant(
        'A code_verifier was sent, but the authorization request had no code_challenge.',
      );
    }
    return;
  }
  if (!verifier) throw OAuthError.invalidRequest('The request is missing the "code_verifier" parameter.');
  if (!PKCE_VALUE.test(verifier)) throw OAuthError.invalidGrant('The code_verifier is malformed.');
  const computed =
    stored.codeChallengeMethod === 'plain'
      ? verifier
      : createHash('sha256').update(verifier).digest('base64url');
  if (!safeEqual(computed, stored.codeChallenge)) {
    throw OAuthError.invalidGrant('The code_verifier does not match the code_challenge.');
  }
}
