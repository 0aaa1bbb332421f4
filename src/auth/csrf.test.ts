import { describe, expect, it } from 'vitest';
import { CsrfExceptions } from './csrf.js';
import { tokensMatch } from './session.js';

describe('CsrfExceptions', () => {
  const exceptions = new CsrfExceptions().add('/stripe/webhook', 'braintree/*', '*/hooks/in');

  it('matches exact paths, ignoring leading and trailing slashes', () => {
    expect(exceptions.matches('/stripe/webhook')).toBe(true);
    expect(exceptions.matches('/stripe/webhook/')).toBe(true);
    expect(exceptions.matches('/stripe/webhooks')).toBe(false);
    expect(exceptions.matches('/stripe')).toBe(false);
  });

  it('lets * match any run of characters, slashes included', () => {
    expect(exceptions.matches('/braintree/webhook')).toBe(true);
    expect(exceptions.matches('/braintree/a/b')).toBe(true);
    expect(exceptions.matches('/x/y/hooks/in')).toBe(true);
    expect(exceptions.matches('/braintreex')).toBe(false);
  });

  it('treats other characters literally', () => {
    const dots = new CsrfExceptions().add('/a.b');
    expect(dots.matches('/a.b')).toBe(true);
    expect(dots.matches('/aXb')).toBe(false);
  });

  it('matches nothing when empty', () => {
    expect(new CsrfExceptions().matches('/')).toBe(false);
  });
});

describe('tokensMatch', () => {
  it('compares whole tokens', () => {
    expect(tokensMatch('abc', 'abc')).toBe(true);
    expect(tokensMatch('abc', 'abd')).toBe(false);
    expect(tokensMatch('abc', 'ab')).toBe(false);
    expect(tokensMatch('abc', '')).toBe(false);
  });
});
