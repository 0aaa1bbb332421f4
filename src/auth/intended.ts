/**
 * `target` as a same-site path (`/path?query#hash`), or undefined when it could lead elsewhere:
 * absolute and scheme-relative URLs (`//evil.example`, also once dot segments are resolved:
 * `/..//evil.example`), backslashes (browsers read `/\evil` as `//evil`) and control characters
 * are refused — an open redirect after login is a phishing aid.
 */
export function sameSitePath(target: string | undefined, appUrl: string): string | undefined {
  if (!target || target.length > 2048 || !target.startsWith('/') || target.startsWith('//')) return undefined;
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what we refuse.
  if (/[\\\u0000-\u001f\u007f]/.test(target)) return undefined;
  try {
    const base = new URL(appUrl);
    const url = new URL(target, base);
    const path = url.pathname + url.search + url.hash;
    // Dot segments are resolved here (`/..//evil` becomes `//evil`): what comes out must still be a
    // path, never a scheme-relative URL a browser would follow to another host.
    return url.origin === base.origin && !path.startsWith('//') ? path : undefined;
  } catch {
    return undefined;
  }
}
