import { describe, expect, it } from 'vitest';
import { sameSitePath } from './intended.js';

describe('sameSitePath', () => {
  const app = 'https://tollgate.example';

  it('keeps paths with query and fragment', () => {
    expect(sameSitePath('/dashboard', app)).toBe('/dashboard');
    expect(sameSitePath('/oauth/authorize?client_id=1&scope=a%20b#x', app)).toBe(
      '/oauth/authorize?client_id=1&scope=a%20b#x',
    );
    // Encoded control characters stay encoded inside the path: harmless in a Location header.
    expect(sameSitePath('/%0d%0aSet-Cookie:x', app)).toBe('/%0d%0aSet-Cookie:x');
  });

  it.each([
    undefined,
    '',
    'dashboard',
    'https://evil.example/',
    'javascript:alert(1)',
    '//evil.example',
    '/\\evil.example',
    '/a\nb',
    `/${'a'.repeat(3000)}`,
  ])('refuses %j', (target) => {
    expect(sameSitePath(target, app)).toBeUndefined();
  });
});
