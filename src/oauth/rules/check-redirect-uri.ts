import { hasControlCharacters } from '../../core/text.js';
import { type ClientRecord, isPublicClient } from '../records.js';

/** The client's registered redirect URIs (Passport allows a comma-separated list). */
export function registeredRedirects(client: ClientRecord): string[] {
  return client.redirect
    .split(',')
    .map((uri) => uri.trim())
    .filter(Boolean);
}

/**
 * RFC 9700 §4.1.3 / RFC 6749 §3.1.2.3: simple string comparison, no prefix or pattern matching.
 * One exception, for public clients only: a loopback IP redirect matches on any port (RFC 8252
 * §7.3: a native app listens on a port the operating system picks at run time); scheme, host,
 * path and query still compare byte for byte.
 */
export function redirectUriMatches(client: ClientRecord, uri: string): boolean {
  const registered = registeredRedirects(client);
  if (registered.includes(uri)) return true;
  if (!isPublicClient(client)) return false;
  const asked = loopbackParts(uri);
  if (!asked) return false;
  return registered.some((candidate) => {
    const parts = loopbackParts(candidate);
    return parts !== undefined && parts.host === asked.host && parts.rest === asked.rest;
  });
}

// `http://127.0.0.1:8080/cb?x=1` → host `127.0.0.1`, port `8080`, rest `/cb?x=1`. IP literals only:
// RFC 8252 §8.3 calls `localhost` NOT RECOMMENDED, so it keeps exact matching.
const LOOPBACK = /^http:\/\/(127\.0\.0\.1|\[::1\])(?::(\d{1,5}))?([/?][^#]*)?$/;

function loopbackParts(uri: string): { host: string; rest: string } | undefined {
  const match = LOOPBACK.exec(uri);
  if (!match) return undefined;
  if (match[2] !== undefined && (Number(match[2]) < 1 || Number(match[2]) > 65535)) return undefined;
  return { host: match[1]!, rest: match[3] ?? '' };
}

const LOOPBACK_HOSTS = new Set(['127.0.0.1', '[::1]', 'localhost']);

/**
 * Schemes a redirect may never use: script and local-content schemes (they would run or read
 * in the user's browser) and the web's other network schemes, which are not private-use schemes.
 */
const REFUSED_SCHEMES = new Set([
  'javascript',
  'vbscript',
  'data',
  'blob',
  'file',
  'filesystem',
  'about',
  'view-source',
  'ftp',
  'ws',
  'wss',
]);

/** RFC 3986 §3.1 scheme, then the rest. */
const SCHEME = /^([A-Za-z][A-Za-z0-9+.-]*):/;

/** The longest redirect URL accepted: what browsers and servers reliably carry in a URL. */
export const MAX_REDIRECT_LENGTH = 2000;

export const REDIRECT_SHAPE =
  'The redirect field must be a valid URL: absolute http or https (public clients may also use a loopback or a private-use scheme URL).';

/**
 * What is wrong with `uri` as a redirect for any client, or undefined: an absolute URL without a
 * fragment (RFC 6749 §3.1.2) or user info, http(s) or a private-use scheme (RFC 8252 §7.1), of
 * at most `MAX_REDIRECT_LENGTH` characters and none of them a control character (the URL parser
 * would quietly encode a NUL that the stored text keeps).
 */
export function redirectShapeProblem(uri: string): string | undefined {
  if (uri.length > MAX_REDIRECT_LENGTH)
    return `A redirect may not be longer than ${MAX_REDIRECT_LENGTH} characters.`;
  if (hasControlCharacters(uri)) return 'The redirect field must not contain control characters.';
  const scheme = SCHEME.exec(uri)?.[1]?.toLowerCase();
  if (!scheme || REFUSED_SCHEMES.has(scheme) || uri.includes('#') || /\s/.test(uri)) return REDIRECT_SHAPE;
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return REDIRECT_SHAPE;
  }
  if (url.username || url.password) return 'The redirect field must not carry a user name or password.';
  if (
    (scheme === 'http' || scheme === 'https') &&
    (!uri.slice(scheme.length).startsWith('://') || !url.host)
  ) {
    return REDIRECT_SHAPE;
  }
  return undefined;
}

/**
 * What is wrong with `uri` as a redirect for this kind of client, or undefined. Confidential
 * clients are web servers: http(s) anywhere. Public clients (native apps, RFC 8252 §7) may use
 * https, http on a loopback host only, and private-use schemes (`com.example.app:/cb`,
 * `cursor://…`); confidential clients may not use private-use schemes.
 */
export function redirectProblem(uri: string, options: { publicClient: boolean }): string | undefined {
  const shape = redirectShapeProblem(uri);
  if (shape) return shape;
  const url = new URL(uri);
  if (url.protocol === 'https:') return undefined;
  if (url.protocol === 'http:') {
    if (!options.publicClient || LOOPBACK_HOSTS.has(url.hostname)) return undefined;
    return 'A public client may use http only on a loopback address (127.0.0.1, [::1] or localhost); use https.';
  }
  if (options.publicClient) return undefined;
  return 'Private-use URI schemes are for public (native app) clients.';
}

/** Every problem with a comma-separated list of redirects, as `redirectProblem` finds them. */
export function redirectListProblem(list: string, options: { publicClient: boolean }): string | undefined {
  for (const uri of list.split(',')) {
    const problem = redirectProblem(uri.trim(), options);
    if (problem) return problem;
  }
  return undefined;
}

/** Whether `uri` may be registered as a redirect for this kind of client (confidential by default). */
export function isValidRedirect(
  uri: string,
  options: { publicClient: boolean } = { publicClient: false },
): boolean {
  return redirectProblem(uri, options) === undefined;
}
