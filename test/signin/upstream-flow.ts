import { tokenIn } from '../auth/browser.js';
import { CookieJar } from '../support/cookie-jar.js';

/** The app's side of a browser: any test browser with cookies. */
interface AppBrowser {
  get(path: string): Promise<Response>;
  post(path: string, fields: Record<string, string>): Promise<Response>;
}

/** The identity provider's side of a browser: its own cookies, redirects followed by hand. */
export class IdpBrowser extends CookieJar {
  async get(url: string): Promise<Response> {
    const headers = this.sendCookies(new Headers());
    return this.keepCookies(await fetch(url, { headers, redirect: 'manual' }));
  }

  async post(url: string, fields: Record<string, string>): Promise<Response> {
    const headers = this.sendCookies(new Headers({ 'content-type': 'application/x-www-form-urlencoded' }));
    return this.keepCookies(
      await fetch(url, { method: 'POST', headers, body: new URLSearchParams(fields), redirect: 'manual' }),
    );
  }

  /**
   * From the provider's authorization URL to the app's callback URL: the provider's login form,
   * signed in as `login` (or denied), redirects followed while they stay at the provider.
   */
  async authorize(authorizationUrl: string, login: string | 'deny'): Promise<string> {
    let res = await this.get(authorizationUrl);
    let at = new URL(res.headers.get('location')!, authorizationUrl);
    if (!at.pathname.startsWith('/interaction/')) throw new Error(`Expected the login page, got ${at.href}`);
    res = await this.post(
      login === 'deny' ? `${at.href}/deny` : `${at.href}/login`,
      login === 'deny' ? {} : { login },
    );
    at = new URL(res.headers.get('location')!, at);
    while (at.origin === new URL(authorizationUrl).origin) {
      res = await this.get(at.href);
      if (res.status !== 303 && res.status !== 302)
        throw new Error(`${at.href}: ${res.status} ${await res.text()}`);
      at = new URL(res.headers.get('location')!, at);
    }
    return at.href;
  }
}

/** The app's path and query of a URL. */
export function pathOf(url: string): string {
  const u = new URL(url);
  return u.pathname + u.search;
}

/** Starts the sign-in at the app (`start`: a GET link, or a form posted with its page's token). */
export async function upstreamRedirect(
  app: AppBrowser,
  start: { get: string } | { post: string; page: string },
): Promise<string> {
  const res =
    'get' in start
      ? await app.get(start.get)
      : await app.post(start.post, { _token: tokenIn(await (await app.get(start.page)).text()) });
  if (res.status !== 303)
    throw new Error(`Expected a redirect to the provider, got ${res.status}: ${await res.text()}`);
  return res.headers.get('location')!;
}
