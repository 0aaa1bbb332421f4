/** The longest client id URL accepted (the client id columns hold 255 characters). */
export const MAX_CLIENT_ID_URL_LENGTH = 255;

/**
 * Whether `id` looks like a Client ID Metadata Document URL at all (draft-ietf-oauth-client-id-
 * metadata-document §3): what routes a client id to the document fetcher instead of the table of
 * registered clients. `clientIdUrlProblem` then says what is wrong with it, if anything.
 */
export function isClientIdUrl(id: string, options: { allowHttp?: boolean } = {}): boolean {
  return id.startsWith('https://') || (options.allowHttp === true && id.startsWith('http://'));
}

/**
 * What is wrong with `id` as a client id URL, or undefined (§3): https (http only when allowed),
 * a path, no fragment, no user name or password, no `.` or `..` segment, in canonical form (the
 * string the URL parser gives back, so one document has one client id) and not too long. The
 * draft only discourages a query; it is refused here, as some servers would ignore it.
 */
export function clientIdUrlProblem(id: string, options: { allowHttp?: boolean } = {}): string | undefined {
  if (id.length > MAX_CLIENT_ID_URL_LENGTH) {
    return `A client id URL may not be longer than ${MAX_CLIENT_ID_URL_LENGTH} characters.`;
  }
  let url: URL;
  try {
    url = new URL(id);
  } catch {
    return 'The client id is not a URL.';
  }
  if (url.protocol !== 'https:' && !(options.allowHttp && url.protocol === 'http:')) {
    return 'A client id URL must use https.';
  }
  if (url.username || url.password) return 'A client id URL may not carry a user name or password.';
  if (id.includes('#') || url.search || id.includes('?')) {
    return 'A client id URL may not have a query or a fragment.';
  }
  if (url.pathname === '/') return 'A client id URL must have a path.';
  if (/\/\.{1,2}(\/|$)/.test(id.slice(url.origin.length)) || url.href !== id) {
    return 'A client id URL must be in canonical form, without "." or ".." segments.';
  }
  return undefined;
}

/** The host serving a metadata-document client's document, or undefined for a registered client. */
export function documentHost(clientId: string): string | undefined {
  if (!/^https?:\/\//.test(clientId)) return undefined;
  return URL.canParse(clientId) ? new URL(clientId).host : undefined;
}
