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
    '/..//evil.example',
    '/.//evil.example',
    '/../..//evil.example',
    '/..///evil.example/x?y#z',
    '/%2e%2e//evil.example',
    '/.%2e//evil.example',
    '/%2E//evil.example',
    '/a/../..//evil.example',
    '/..\\/evil.example',
    '/../\tevil.example',
    '/\u0000//evil.example',
  ])('refuses %j', (target) => {
    expect(sameSitePath(target, app)).toBeUndefined();
  });

  it('never returns anything but a same-site path, whatever dot segments and slashes it is given', () => {
    const slashes = ['/', '//', '\\', ':', '?', '#'];
    const parts = [...slashes, '.', '..', '%2e', '%2E%2e', 'evil.example', '@evil.example', 'a'];
    const seen: string[] = [];
    for (const a of parts)
      for (const b of parts)
        for (const c of parts) {
          const out = sameSitePath(`/${a}${b}${c}`, app);
          if (out === undefined) continue;
          seen.push(out);
          expect(out.startsWith('/'), out).toBe(true);
          expect(out.startsWith('//') || out.startsWith('/\\'), out).toBe(false);
          expect(new URL(out, app).origin).toBe(app);
        }
    expect(seen.length).toBeGreaterThan(100);
  });
});
