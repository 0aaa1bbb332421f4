import { hasControlCharacters } from '../../core/text.js';

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * Why `value` may not be a URL a client registers for others to open or for this server to fetch
 * (`logo_uri`, `policy_uri`, `tos_uri`, `jwks_uri`, a `request_uri`), or undefined when it may:
 * an absolute `https` URL — or `http` on a loopback host (`localhost`, `127.0.0.1`, `[::1]`), for a
 * developer's machine — of at most 2048 characters, without user name, password or fragment.
 * RFC 7591 §2 asks servers to check these URLs; OpenID Connect Registration §2 wants `https`.
 */
export function clientUrlProblem(value: unknown, field: string): string | undefined {
  const refusal = `The ${field} must be an https URL (http only on localhost) without credentials or fragment, of at most 2048 characters.`;
  if (typeof value !== 'string' || value.length > 2048 || hasControlCharacters(value)) return refusal;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return refusal;
  }
  const secure = url.protocol === 'https:' || (url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname));
  if (!secure || url.username || url.password || url.hash || value.includes('#')) return refusal;
  return undefined;
}
