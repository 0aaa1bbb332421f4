import { createHash, randomBytes } from 'node:crypto';

/**
 * The authorization request every exchange of a bench load repeats (RFC 6749 §4.1.1 with a PKCE
 * S256 challenge, RFC 7636), with the verifier its token request sends.
 */
export function authorizationRequest(
  endpoint: string,
  clientId: string,
  redirectUri: string,
): { authorizePath: string; codeVerifier: string; state: string } {
  const codeVerifier = randomBytes(32).toString('base64url');
  const state = 'bench-state';
  const query = new URLSearchParams({
    client_id: clientId,
    redirect_uri: redirectUri,
    response_type: 'code',
    scope: 'check-status',
    state,
    code_challenge: createHash('sha256').update(codeVerifier).digest('base64url'),
    code_challenge_method: 'S256',
  });
  return { authorizePath: `${endpoint}?${query}`, codeVerifier, state };
}
