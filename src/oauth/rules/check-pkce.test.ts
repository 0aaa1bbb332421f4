import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { checkCodeChallenge, verifyCodeVerifier } from './check-pkce.js';

const verifier = 'dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk';
// RFC 7636 Appendix B's example pair.
const challenge = 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM';

describe('PKCE (RFC 7636)', () => {
  it('Appendix B: the S256 example verifies', () => {
    expect(createHash('sha256').update(verifier).digest('base64url')).toBe(challenge);
    expect(() =>
      verifyCodeVerifier({ codeChallenge: challenge, codeChallengeMethod: 'S256' }, verifier),
    ).not.toThrow();
  });

  it('§4.6: a wrong verifier is invalid_grant, a missing one invalid_request', () => {
    expect(() =>
      verifyCodeVerifier(
        { codeChallenge: challenge, codeChallengeMethod: 'S256' },
        `${verifier.slice(0, -1)}Y`,
      ),
    ).toThrow(expect.objectContaining({ code: 'invalid_grant' }));
    expect(() =>
      verifyCodeVerifier({ codeChallenge: challenge, codeChallengeMethod: 'S256' }, undefined),
    ).toThrow(expect.objectContaining({ code: 'invalid_request' }));
  });

  it('RFC 9700 §4.8.2: a verifier without a challenge is refused', () => {
    expect(() => verifyCodeVerifier({ codeChallenge: null, codeChallengeMethod: null }, verifier)).toThrow(
      expect.objectContaining({ code: 'invalid_grant' }),
    );
    expect(() =>
      verifyCodeVerifier({ codeChallenge: null, codeChallengeMethod: null }, undefined),
    ).not.toThrow();
  });

  it('§4.3: plain only when allowed (and the default method when none is sent)', () => {
    const options = { publicClient: false, allowPlain: false };
    expect(() => checkCodeChallenge({ codeChallenge: verifier }, options)).toThrow(/plain/);
    expect(checkCodeChallenge({ codeChallenge: verifier }, { ...options, allowPlain: true })).toEqual({
      codeChallenge: verifier,
      codeChallengeMethod: 'plain',
    });
    expect(() =>
      verifyCodeVerifier({ codeChallenge: verifier, codeChallengeMethod: 'plain' }, verifier),
    ).not.toThrow();
  });

  it('a public client must send a challenge; malformed challenges and methods are refused', () => {
    expect(() => checkCodeChallenge({}, { publicClient: true, allowPlain: false })).toThrow(/public client/);
    expect(checkCodeChallenge({}, { publicClient: false, allowPlain: false })).toBeUndefined();
    expect(() =>
      checkCodeChallenge(
        { codeChallenge: 'short', codeChallengeMethod: 'S256' },
        { publicClient: true, allowPlain: false },
      ),
    ).toThrow(/malformed/);
    expect(() =>
      checkCodeChallenge(
        { codeChallenge: challenge, codeChallengeMethod: 'S512' },
        { publicClient: true, allowPlain: false },
      ),
    ).toThrow(/S256/);
  });
});
