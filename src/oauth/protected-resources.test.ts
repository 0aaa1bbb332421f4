import { describe, expect, it } from 'vitest';
import { defineConfig } from '../config/index.js';
import type { ProtectedResourceConfig } from './config.js';
import { metadataUrlFor, protectedResources } from './protected-resources.js';

const configWith = (protectedResources: ProtectedResourceConfig[]) =>
  defineConfig({
    app: { url: 'https://api.example/' },
    oauth: { scopes: { read: 'Read' }, protectedResources },
  });

describe('protected resources (RFC 9728)', () => {
  it('§3.1: the well-known segment goes between the host and the path', () => {
    expect(metadataUrlFor('https://api.example')).toBe(
      'https://api.example/.well-known/oauth-protected-resource',
    );
    expect(metadataUrlFor('https://api.example/')).toBe(
      'https://api.example/.well-known/oauth-protected-resource',
    );
    expect(metadataUrlFor('https://api.example/mcp')).toBe(
      'https://api.example/.well-known/oauth-protected-resource/mcp',
    );
    expect(metadataUrlFor('https://api.example:8443/v1/')).toBe(
      'https://api.example:8443/.well-known/oauth-protected-resource/v1/',
    );
  });

  it('without configuration, the application (the issuer) with every scope', () => {
    const [only, ...rest] = protectedResources(configWith([]));
    expect(rest).toEqual([]);
    expect(only!.metadata).toMatchObject({ resource: 'https://api.example', scopes_supported: ['read'] });
    expect(only!.wellKnownPath).toBe('/.well-known/oauth-protected-resource');
  });

  it.each([
    [[{ resource: 'not a url' }], /not an absolute URL/],
    [[{ resource: 'https://api.example/mcp#x' }], /without query or fragment/],
    [[{ resource: 'https://api.example/mcp?v=1' }], /without query or fragment/],
    [[{ resource: 'urn:example:api' }], /http\(s\)/],
    [[{ resource: 'https://api.example/mcp', scopes: ['write'] }], /"write"/],
    [
      [{ resource: 'https://api.example/mcp' }, { resource: 'https://other.example/mcp' }],
      /share the metadata path/,
    ],
  ])('a bad entry is a configuration error: %j', (entries, message) => {
    expect(() => protectedResources(configWith(entries))).toThrow(message);
  });
});
