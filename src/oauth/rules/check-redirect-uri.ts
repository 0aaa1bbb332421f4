import type { ClientRecord } from '../records.js';

/** The client's registered redirect URIs (Passport allows a comma-separated list). */
export function registeredRedirects(client: ClientRecord): string[] {
  return client.redirect
    .split(',')
    .map((uri) => uri.trim())
    .filter(Boolean);
}

/** RFC 9700 §4.1.3 / RFC 6749 §3.1.2.3: simple string comparison, no prefix or pattern matching. */
export function redirectUriMatches(client: ClientRecord, uri: string): boolean {
  return registeredRedirects(client).includes(uri);
}

/** An absolute http(s) URL without a fragment (RFC 6749 §3.1.2). */
export function isValidRedirect(uri: string): boolean {
  try {
    const url = new URL(uri);
    return (url.protocol === 'https:' || url.protocol === 'http:') && url.hash === '' && !uri.includes('#');
  } catch {
    return false;
  }
}
