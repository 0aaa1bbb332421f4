import type { TestApp } from '../support/app.js';
import { CookieJar } from '../support/cookie-jar.js';

/**
 * A minimal browser over `TestApp.request`: keeps the cookies the app sets (honouring Max-Age=0
 * deletions), sends them back, and submits forms url-encoded with a same-origin `Origin`.
 */
export class Browser extends CookieJar {
  constructor(private readonly t: TestApp) {
    super();
  }

  async request(path: string, init: RequestInit = {}): Promise<Response> {
    const headers = this.sendCookies(new Headers(init.headers));
    return this.keepCookies(await this.t.request(path, { ...init, headers, redirect: 'manual' }));
  }

  get(path: string, headers: Record<string, string> = {}): Promise<Response> {
    return this.request(path, { headers });
  }

  /** Posts a form as a browser would (url-encoded, with a same-origin Origin header). */
  post(
    path: string,
    fields: Record<string, string>,
    headers: Record<string, string> = {},
  ): Promise<Response> {
    return this.request(path, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        origin: 'http://localhost',
        ...headers,
      },
      body: new URLSearchParams(fields).toString(),
    });
  }

  /** Loads a page and returns the `_token` of its form. */
  async csrfToken(path = '/login'): Promise<string> {
    const res = await this.get(path);
    return tokenIn(await res.text());
  }

  /** GET the form, then POST it with its token. */
  async submit(path: string, fields: Record<string, string>): Promise<Response> {
    const token = await this.csrfToken(path);
    return this.post(path, { _token: token, ...fields });
  }
}

export function tokenIn(html: string): string {
  const match = /name="_token" value="([^"]+)"/.exec(html);
  if (!match) throw new Error(`No _token in the page:\n${html.slice(0, 500)}`);
  return match[1]!;
}
