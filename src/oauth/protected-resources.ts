import type { TollgateConfig } from '../core/config.js';
import { ConfigurationError } from '../core/errors.js';
import { ConfigKey } from '../core/keys.js';
import { issuerOf } from './jwt/access-token-signer.js';

/** RFC 9728 §3: the well-known path segment for protected-resource metadata. */
export const PROTECTED_RESOURCE_WELL_KNOWN = '/.well-known/oauth-protected-resource';

/** RFC 9728 §2's metadata document for one protected resource. */
export interface ProtectedResourceMetadata {
  resource: string;
  authorization_servers: string[];
  scopes_supported: string[];
  bearer_methods_supported: string[];
  resource_name?: string;
  resource_documentation?: string;
}

/** A configured resource with the path its metadata is served at. */
export interface ProtectedResource {
  /** `/.well-known/oauth-protected-resource` followed by the resource's path, if any. */
  wellKnownPath: string;
  /** The absolute URL of the metadata: what a 401 challenge's `resource_metadata` points at. */
  metadataUrl: string;
  metadata: ProtectedResourceMetadata;
}

/**
 * RFC 9728 §3.1: the well-known segment goes between the host and the resource's path, and a
 * terminating slash after the host is dropped (`https://api.example/mcp` →
 * `https://api.example/.well-known/oauth-protected-resource/mcp`).
 */
export function metadataUrlFor(resource: string): string {
  const url = new URL(resource);
  const path = url.pathname === '/' ? '' : url.pathname;
  return `${url.origin}${PROTECTED_RESOURCE_WELL_KNOWN}${path}`;
}

/**
 * The protected resources from `oauth.protectedResources` (or the application itself), checked:
 * a bad identifier is a configuration error at boot, not a broken document later.
 */
export function protectedResources(config: TollgateConfig): ProtectedResource[] {
  const issuer = issuerOf(config);
  const configured = config.oauth.protectedResources.length
    ? config.oauth.protectedResources
    : [{ resource: issuer }];
  const seen = new Set<string>();
  return configured.map((entry) => {
    const url = parseResource(entry.resource);
    const metadataUrl = metadataUrlFor(entry.resource);
    const wellKnownPath = new URL(metadataUrl).pathname;
    if (seen.has(wellKnownPath)) {
      throw new ConfigurationError(
        `oauth.protectedResources: two resources share the metadata path ${wellKnownPath}.`,
      );
    }
    seen.add(wellKnownPath);
    for (const scope of entry.scopes ?? []) {
      if (!(scope in config.oauth.scopes)) {
        throw new ConfigurationError(
          `oauth.protectedResources: ${entry.resource} lists the scope "${scope}", which oauth.scopes does not define.`,
        );
      }
    }
    const metadata: ProtectedResourceMetadata = {
      resource: url,
      authorization_servers: [...(entry.authorizationServers ?? [issuer])],
      scopes_supported: [...(entry.scopes ?? Object.keys(config.oauth.scopes))],
      // RFC 6750 §2.1 only: the guard reads neither the body nor the query string.
      bearer_methods_supported: ['header'],
    };
    if (entry.name) metadata.resource_name = entry.name;
    if (entry.documentation) metadata.resource_documentation = entry.documentation;
    return { wellKnownPath, metadataUrl, metadata };
  });
}

function parseResource(resource: string): string {
  let url: URL;
  try {
    url = new URL(resource);
  } catch {
    throw new ConfigurationError(`oauth.protectedResources: "${resource}" is not an absolute URL.`);
  }
  if (
    (url.protocol !== 'https:' && url.protocol !== 'http:') ||
    url.search ||
    url.hash ||
    resource.includes('#')
  ) {
    throw new ConfigurationError(
      `oauth.protectedResources: "${resource}" must be an http(s) URL without query or fragment (RFC 9728 §1.2).`,
    );
  }
  return resource;
}

/** The configured protected resources, built and checked once, looked up by metadata path. */
export class ProtectedResources {
  static inject = [ConfigKey] as const;
  readonly all: readonly ProtectedResource[];
  readonly #byPath: ReadonlyMap<string, ProtectedResource>;
  /** Longest resource path first. */
  readonly #byPrefix: readonly (readonly [string, ProtectedResource])[];
  readonly #identifiers: ReadonlySet<string>;

  constructor(config: TollgateConfig) {
    this.all = protectedResources(config);
    this.#byPath = new Map(this.all.map((entry) => [entry.wellKnownPath, entry]));
    this.#byPrefix = this.all
      .map((entry) => [new URL(entry.metadata.resource).pathname.replace(/\/+$/, ''), entry] as const)
      .sort(([a], [b]) => b.length - a.length);
    this.#identifiers = new Set(this.all.map((entry) => entry.metadata.resource));
  }

  /** The resource whose metadata lives at `path` (the request's path). */
  at(path: string): ProtectedResource | undefined {
    return this.#byPath.get(path);
  }

  /**
   * The resource a request path belongs to: the one whose URL path is the longest prefix of it,
   * in whole segments (`/mcp` holds `/mcp` and `/mcp/tools`, not `/mcpx`); a resource at the
   * root holds every path no other one does.
   */
  forPath(path: string): ProtectedResource | undefined {
    for (const [prefix, entry] of this.#byPrefix) {
      if (prefix === '' || path === prefix || path.startsWith(`${prefix}/`)) return entry;
    }
    return undefined;
  }

  /** Whether `resource` is exactly the identifier of a configured resource (RFC 8707 `resource`). */
  has(resource: string): boolean {
    return this.#identifiers.has(resource);
  }
}
