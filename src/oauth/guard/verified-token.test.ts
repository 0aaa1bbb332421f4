import { describe, expect, it } from 'vitest';
import type { AccessTokenClaims } from '../jwt/claims.js';
import { bearerToken } from './bearer.js';
import { hasAllScopes, hasAnyScope, toVerifiedToken, transientToken } from './verified-token.js';

const claims = (over: Partial<AccessTokenClaims> = {}): AccessTokenClaims => ({
  iss: 'http://localhost',
  sub: '7',
  aud: 'client-1',
  client_id: 'client-1',
  jti: 'tok-1',
  iat: 1000,
  exp: 2000,
  scope: 'a b',
  scopes: ['a', 'b'],
  ...over,
});

describe('verified tokens', () => {
  it('reads the user from sub, and no user when sub is the client (client_credentials)', () => {
    expect(toVerifiedToken(claims()).userId).toBe(7);
    expect(toVerifiedToken(claims({ sub: 'client-1' })).userId).toBeNull();
    expect(toVerifiedToken(claims()).expiresAtMs).toBe(2_000_000);
  });

  it("user.token()'s expiresAt is exp as an ISO string, when read and in JSON", () => {
    const { current } = toVerifiedToken(claims({ exp: 1_800_000_000 }));
    expect(current.expiresAt).toBe('2027-01-15T08:00:00.000Z');
    expect(JSON.parse(JSON.stringify(current))).toEqual({
      id: 'tok-1',
      clientId: 'client-1',
      userId: 7,
      scopes: ['a', 'b'],
      expiresAt: '2027-01-15T08:00:00.000Z',
      organizationId: null,
    });
    expect(Object.isFrozen(current)).toBe(true);
  });

  it("keeps the verifier's frozen claims as they are; copies (and never freezes) anyone else's", () => {
    const frozen = Object.freeze({ ...claims(), scopes: Object.freeze(['a', 'b']) as string[] });
    expect(toVerifiedToken(frozen).claims).toBe(frozen);
    const open = claims();
    const token = toVerifiedToken(open);
    expect(token.claims).not.toBe(open);
    expect(token.claims).toEqual(open);
    expect(Object.isFrozen(token.claims.scopes)).toBe(true);
    expect(Object.isFrozen(open) || Object.isFrozen(open.scopes)).toBe(false);
  });

  it('scopes: all-of and any-of; * passes both', () => {
    const token = toVerifiedToken(claims());
    expect(hasAllScopes(token, ['a', 'b'])).toBe(true);
    expect(hasAllScopes(token, ['a', 'c'])).toBe(false);
    expect(hasAnyScope(token, ['c', 'b'])).toBe(true);
    expect(hasAnyScope(token, ['c', 'd'])).toBe(false);
    const star = toVerifiedToken(claims({ scopes: ['*'], scope: '*' }));
    expect(hasAllScopes(star, ['c', 'd'])).toBe(true);
    expect(hasAnyScope(star, ['c'])).toBe(true);
  });

  it('a transient token (app_token cookie) has every scope and never expires', () => {
    const token = transientToken(7, ['*']);
    expect(hasAllScopes(token, ['anything'])).toBe(true);
    expect(token.expiresAtMs).toBe(Number.POSITIVE_INFINITY);
    expect(Object.isFrozen(token.current)).toBe(true);
  });
});

describe('RFC 6750 §2.1 bearer header', () => {
  it.each([
    ['Bearer abc.def.ghi', 'abc.def.ghi'],
    ['bearer abc', 'abc'],
    ['BEARER abc', 'abc'],
    ['Bearer', ''],
    ['Bearer ', ''],
  ])('%j → %j', (header, token) => {
    expect(bearerToken(header)).toBe(token);
  });

  it.each([undefined, 'Basic YTpi', 'Bearerabc', 'Token abc'])('%j is not a bearer credential', (header) => {
    expect(bearerToken(header)).toBeUndefined();
  });
});
