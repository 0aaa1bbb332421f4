import { Browser, tokenIn } from '../auth/browser.js';
import type { TestApp } from '../support/app.js';

/** The test browser over real HTTP to `url` (cookies, forms with their CSRF token). */
export function httpBrowser(url: string): Browser {
  const transport = { request: (path: string, init?: RequestInit) => fetch(new URL(path, url), init) };
  return new Browser(transport as unknown as TestApp);
}

/** Registers a new user through the form, then logs in (signing up does not sign in). */
export async function register(browser: Browser, email: string): Promise<void> {
  const password = 'correct horse battery';
  const res = await browser.submit('/register', {
    name: 'Grace Hopper',
    email,
    password,
    password_confirmation: password,
  });
  if (res.status !== 302) throw new Error(`registration answered ${res.status}: ${await res.text()}`);
  const login = await browser.submit('/login', { email, password });
  if (login.status !== 302) throw new Error(`login answered ${login.status}: ${await login.text()}`);
}

/** The headers a same-origin script sends to the session JSON APIs, with the page's CSRF token. */
export async function jsonHeaders(browser: Browser): Promise<Record<string, string>> {
  const page = await (await browser.get('/dashboard')).text();
  const token = /name="csrf-token" content="([^"]+)"/.exec(page)?.[1] ?? tokenIn(page);
  return { accept: 'application/json', 'content-type': 'application/json', 'x-csrf-token': token };
}
