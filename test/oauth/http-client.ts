import * as oauth from 'oauth4webapi';
import { CookieJar } from '../support/cookie-jar.js';

/** oauth4webapi refuses plain http unless told: the tests run on loopback. */
export const insecure = { [oauth.allowInsecureRequests]: true } as const;

/** A browser over a real socket: a cookie jar, manual redirects, forms with a same-origin Origin. */
export class Browser extends CookieJar {
  constructor(readonly base: string) {
    super();
  }

  async request(path: string, init: RequestInit = {}): Promise<Response> {
    const headers = this.sendCookies(new Headers(init.headers));
    const url = path.startsWith('http') ? path : `${this.base}${path}`;
    return this.keepCookies(await fetch(url, { ...init, headers, redirect: 'manual' }));
  }

  get(path: string, headers: Record<string, string> = {}): Promise<Response> {
    return this.request(path, { headers });
  }

  post(
    path: string,
    fields: Record<string, string>,
    headers: Record<string, string> = {},
  ): Promise<Response> {
    return this.request(path, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: this.base, ...headers },
      body: new URLSearchParams(fields).toString(),
    });
  }

  /** A JSON call as a same-origin frontend makes it, with the session's CSRF token. */
  async json(method: string, path: string, body?: unknown, csrf?: string): Promise<Response> {
    const headers: Record<string, string> = { accept: 'application/json', origin: this.base };
    if (body !== undefined) headers['content-type'] = 'application/json';
    if (csrf) headers['x-csrf-token'] = csrf;
    return this.request(path, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  }

  async login(user: { email: string; password: string }): Promise<void> {
    const page = await this.get('/login');
    const res = await this.post('/login', { _token: tokenIn(await page.text()), ...user });
    if (res.status !== 302) throw new Error(`login failed: ${res.status}`);
  }

  /** The CSRF token of the logged-in session, read from a page's form. */
  async csrfToken(): Promise<string> {
    const res = await this.get('/dashboard');
    return tokenIn(await res.text());
  }
}

export function tokenIn(html: string): string {
  const match = /name="_token" value="([^"]+)"/.exec(html);
  if (!match) throw new Error(`No _token in the page:\n${html.slice(0, 500)}`);
  return match[1]!;
}

/** The hidden fields of a decision page's approve form (the first form posting to `action`). */
export function approvalFields(html: string, action = '/oauth/authorize'): Record<string, string> {
  const form = new RegExp(`<form[^>]*action="${action}"[^>]*>([\\s\\S]*?)</form>`).exec(html);
  if (!form) throw new Error(`No approval form in the page:\n${html.slice(0, 800)}`);
  const fields: Record<string, string> = {};
  for (const m of form[1]!.matchAll(/<input[^>]*name="([^"]+)"[^>]*value="([^"]*)"/g)) {
    fields[m[1]!] = decodeEntities(m[2]!);
  }
  return fields;
}

function decodeEntities(s: string): string {
  return s
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
}

/** Posts a token request form. */
export function tokenRequest(
  t: { url: string },
  fields: Record<string, string>,
  headers: Record<string, string> = {},
): Promise<Response> {
  return fetch(`${t.url}/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body: new URLSearchParams(fields),
  });
}

export function basic(id: string, secret: string): string {
  return `Basic ${Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`).toString('base64')}`;
}
