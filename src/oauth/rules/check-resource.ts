import { OAuthError } from '../errors.js';

/** What a `resource` value is checked against: the configured protected resources. */
export interface KnownResources {
  has(resource: string): boolean;
}

/**
 * RFC 8707 §2: `resource` must be an absolute URI without a fragment, and one this server issues
 * tokens for (an exact match with a configured protected resource's identifier); anything else is
 * `invalid_target`. Undefined or empty: no resource asked for (the token keeps the client as its
 * audience).
 */
export function checkResource(
  value: string | undefined,
  resources: KnownResources,
  options: { redirectable?: boolean } = {},
): string | null {
  if (value === undefined || value === '') return null;
  if (value.includes('#') || !URL.canParse(value)) {
    throw OAuthError.invalidTarget('The resource must be an absolute URI without a fragment.', {
      redirectable: options.redirectable,
    });
  }
  if (!resources.has(value)) {
    throw OAuthError.invalidTarget('The requested resource is unknown to this server.', {
      redirectable: options.redirectable,
      detail: `resource=${value.slice(0, 200)}`,
    });
  }
  return value;
}

/**
 * RFC 8707 §2.2: a token request may name the resource its grant was bound to, or (when the grant
 * was bound to none) any known one; never another.
 */
export function narrowResource(granted: string | null, requested: string | null): string | null {
  if (requested === null) return granted;
  if (granted !== null && requested !== granted) {
    throw OAuthError.invalidTarget('The grant does not cover the requested resource.', {
      detail: `granted ${granted}, requested ${requested.slice(0, 200)}`,
    });
  }
  return requested;
}
