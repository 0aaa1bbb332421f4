import type { AddressInfo } from 'node:net';
import { createServer } from 'node:net';
import * as oauth from 'oauth4webapi';
import { afterAll, beforeAll } from 'vitest';
import { authProvider } from '../../src/auth/index.js';
import type { User } from '../../src/auth/user.js';
import { Users } from '../../src/auth/users.js';
import type { DeepPartial, TollgateConfig } from '../../src/core/config.js';
import type { Application, ServiceProvider } from '../../src/kernel/application.js';
import { listen, type RunningServer } from '../../src/kernel/server.js';
import {
  Clients,
  type CreatedClient,
  installKeys,
  type OAuthOptions,
  oauthProvider,
} from '../../src/oauth/index.js';
import { createTestApp, type TestApp } from '../support/app.js';
import { CookieJar } from '../support/cookie-jar.js';

export const ADA = { name: 'Ada Lovelace', email: 'ada@example.com', password: 'correct horse battery' };
export const BOB = { name: 'Bob Babbage', email: 'bob@example.com', password: 'difference engine 2' };
export const REDIRECT = 'http://127.0.0.1:9999/callback';

export const SCOPES = {
  'place-orders': 'Place orders on your behalf',
  'check-status': 'Check the status of your orders',
};

export interface OAuthTestApp extends TestApp {
  server: RunningServer;
  url: string;
  ada: User;
  bob: User;
  /** oauth4webapi's view of this server; its issuer is the configured app URL. */
  as: oauth.AuthorizationServer;
  createClient(input?: Partial<Parameters<Clients['create']>[0]>): Promise<CreatedClient>;
  stop(): Promise<void>;
}

/** The auth and OAuth providers on a fresh database, keys installed, Ada and Bob registered, served on a free port. */
export async function oauthApp(
  options: {
    config?: DeepPartial<TollgateConfig>;
    oauth?: OAuthOptions;
    /** Runs before boot, after the keys are installed: declare the test's routes here. */
    setup?: (app: Application) => void;
    /** The port to serve on (see `freePort`, for an issuer that is the server's own URL); default any. */
    port?: number;
    /** Providers registered before auth and oauth (say, `observabilityProvider()`). */
    providers?: ServiceProvider[];
    /** Providers registered after them (say, `mailProvider()` and `accountsProvider()`). */
    modules?: ServiceProvider[];
  } = {},
): Promise<OAuthTestApp> {
  const t = await createTestApp({
    providers: [
      ...(options.providers ?? []),
      authProvider(),
      oauthProvider(options.oauth),
      ...(options.modules ?? []),
    ],
    config: { ...options.config, oauth: { scopes: SCOPES, ...options.config?.oauth } },
    setup: (app) => {
      installKeys(app.config.storagePath, app.config.oauth.signingAlgorithm);
      options.setup?.(app);
    },
  });
  const users = t.app.container.make(Users);
  const ada = await users.create(ADA);
  const bob = await users.create(BOB);
  const server = await listen(t.app, '127.0.0.1', options.port ?? 0);
  const issuer = t.app.config.app.url.replace(/\/+$/, '');
  const as: oauth.AuthorizationServer = {
    issuer,
    authorization_endpoint: `${server.url}/oauth/authorize`,
    token_endpoint: `${server.url}/oauth/token`,
    revocation_endpoint: `${server.url}/oauth/revoke`,
    introspection_endpoint: `${server.url}/oauth/introspect`,
    authorization_response_iss_parameter_supported: true,
  };
  const clients = t.app.container.make(Clients);
  return {
    ...t,
    server,
    url: server.url,
    ada,
    bob,
    as,
    createClient: (input = {}) => clients.create({ name: 'Test App', redirect: REDIRECT, ...input }),
    stop: async () => {
      await server.close();
      await t.close();
    },
  };
}

/**
 * A server for the enclosing suite (`oauthApp(options)`) with Ada logged in and her session's CSRF
 * token; its fields are filled in by the suite's `beforeAll`, so read them inside the tests.
 */
export function serverWithAda(options: Parameters<typeof oauthApp>[0] = {}): {
  t: OAuthTestApp;
  ada: Browser;
  csrf: string;
} {
  const state = {} as { t: OAuthTestApp; ada: Browser; csrf: string };
  beforeAll(async () => {
    state.t = await oauthApp(options);
    state.ada = new Browser(state.t.url);
    await state.ada.login(ADA);
    state.csrf = await state.ada.csrfToken();
  });
  afterAll(async () => state.t?.stop());
  return state;
}

/** A port free right now, for a server whose configured URL must be its real one. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

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
