import { describe, expect, it } from 'vitest';
import { defineConfig } from '../config/index.js';
import { OAuthError } from './errors.js';
import { Scopes, scopesAllow } from './scopes.js';

const scopes = new Scopes(
  defineConfig({ oauth: { scopes: { read: 'Read things', write: 'Write things' } } }),
);

describe('Scopes', () => {
  it('RFC 6749 §3.3: parses a space-delimited list without repeats', () => {
    expect(Scopes.parse('read  write read')).toEqual(['read', 'write']);
    expect(Scopes.parse('')).toEqual([]);
    expect(Scopes.parse(undefined)).toEqual([]);
  });

  it('refuses unknown scopes with invalid_scope', () => {
    expect(() => scopes.validate(['read', 'delete'], { allowAll: true })).toThrow(OAuthError);
    try {
      scopes.validate(['delete'], { allowAll: false, redirectable: true });
    } catch (err) {
      expect(err).toMatchObject({ code: 'invalid_scope', status: 400, redirectable: true });
    }
  });

  it('`*` only where allowed (the password grant)', () => {
    expect(scopes.validate(['*'], { allowAll: true })).toEqual(['*']);
    expect(() => scopes.validate(['*'], { allowAll: false })).toThrow(/password grant/);
  });

  it('lists and describes scopes, then the OpenID Connect ones; `*` passes every check', () => {
    expect(scopes.all()).toEqual([
      { id: 'read', description: 'Read things' },
      { id: 'write', description: 'Write things' },
      { id: 'openid', description: 'Sign you in with your account' },
      { id: 'profile', description: 'See your name' },
      { id: 'email', description: 'See your e-mail address' },
    ]);
    expect(scopes.describe(['write'])).toEqual([{ id: 'write', description: 'Write things' }]);
    expect(scopesAllow(['*'], 'anything')).toBe(true);
    expect(scopesAllow(['read'], 'write')).toBe(false);
  });
});

describe('Scopes: the OpenID Connect scopes', () => {
  it('are known without configuration; the application may describe them in its own words', () => {
    const own = new Scopes(defineConfig({ oauth: { scopes: { email: 'Your address', read: 'Read' } } }));
    expect(own.validate(['openid', 'profile', 'email'], { allowAll: false })).toEqual([
      'openid',
      'profile',
      'email',
    ]);
    expect(own.all().map((scope) => scope.id)).toEqual(['email', 'read', 'openid', 'profile']);
    expect(own.describe(['email'])).toEqual([{ id: 'email', description: 'Your address' }]);
  });
});
