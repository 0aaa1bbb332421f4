/**
 * The cookie handling of a browser, for test clients: keeps what responses set (a `Max-Age=0` or
 * empty value deletes), and sends it back. Test browsers extend it; tests read and tamper with
 * `cookies` directly.
 */
export class CookieJar {
  readonly cookies = new Map<string, string>();
  /** The raw Set-Cookie line last seen per cookie name, for asserting attributes. */
  readonly setCookie = new Map<string, string>();

  cookieHeader(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }

  /** Adds the Cookie header unless the caller set one. */
  protected sendCookies(headers: Headers): Headers {
    if (this.cookies.size > 0 && !headers.has('cookie')) headers.set('cookie', this.cookieHeader());
    return headers;
  }

  protected keepCookies(res: Response): Response {
    for (const line of res.headers.getSetCookie()) {
      const [pair, ...attributes] = line.split(';');
      const eq = pair!.indexOf('=');
      const name = pair!.slice(0, eq).trim();
      const value = pair!.slice(eq + 1).trim();
      this.setCookie.set(name, line);
      if (value === '' || attributes.some((a) => /^\s*max-age=0\s*$/i.test(a))) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    return res;
  }
}
