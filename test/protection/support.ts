import { allowInsecureRequests, type DPoPHandle, protectedResourceRequest } from 'oauth4webapi';
import { referenceConfig } from '../../app/config.js';
import { routes } from '../../app/routes.js';
import { AppUser } from '../../app/user.js';
import { authProvider } from '../../src/auth/index.js';
import { UserModelKey, Users } from '../../src/auth/users.js';
import type { DeepPartial, TollgateConfig } from '../../src/core/config.js';
import type { Application } from '../../src/kernel/application.js';
import { listen, type RunningServer } from '../../src/kernel/server.js';
import type { ApiGuardOptions } from '../../src/oauth/guard/index.js';
import {
  type ApiTokensUser,
  Clients,
  type CreatedClient,
  currentAccessToken,
  installKeys,
  oauthProvider,
} from '../../src/oauth/index.js';
import { createTestApp, type TestApp } from '../support/app.js';
import { CookieJar } from '../support/cookie-jar.js';
import type { Engine } from '../support/engines.js';

export const ADA = { name: 'Ada Lovelace', email: 'ada@example.com', password: 'correct horse battery' };
export const BOB = { name: 'Bob Babbage', email: 'bob@example.com', password: 'difference engine 2' };

export interface ProtectionApp extends TestApp {
  server: RunningServer;
  url: string;
  ada: ApiTokensUser;
  bob: ApiTokensUser;
  /** The password grant client (the only way to a `*` token). */
  passwordClient: CreatedClient;
  /** A bearer request to the server. */
  call(path: string, token?: string, init?: RequestInit): Promise<Response>;
  /** Password grant for Ada: returns the access token. */
  passwordToken(scope: string, user?: { email: string; password: string }): Promise<string>;
  stop(): Promise<void>;
}

/**
 * The reference service's routes (app/routes.ts) on the auth + OAuth providers, keys installed,
 * a personal access client and a password client, Ada and Bob registered, served on a free port.
 * Probe routes under `/probe` cover what the reference routes do not (all-of scopes, `client`,
 * `tokenCan`).
 */
export async function protectionApp(
  options: { engine?: Engine; config?: DeepPartial<TollgateConfig>; guard?: ApiGuardOptions } = {},
): Promise<ProtectionApp> {
  const t = await createTestApp({
    engine: options.engine,
    providers: [authProvider(), oauthProvider({ guard: options.guard }), routes],
    config: { oauth: referenceConfig.oauth, ...options.config },
    setup: (app) => {
      app.container.instance(UserModelKey, AppUser);
      installKeys(app.config.storagePath, app.config.oauth.signingAlgorithm);
      probeRoutes(app);
    },
  });
  const users = t.app.container.make(Users);
  const ada = await users.create<AppUser>(ADA);
  const bob = await users.create<AppUser>(BOB);
  const clients = t.app.container.make(Clients);
  await clients.create({
    name: 'Personal Access Client',
    redirect: 'http://localhost',
    personalAccess: true,
  });
  const passwordClient = await clients.create({
    name: 'Password Client',
    redirect: 'http://localhost',
    password: true,
  });
  const server = await listen(t.app, '127.0.0.1', 0);
  const call = (path: string, token?: string, init: RequestInit = {}) => {
    const headers = new Headers(init.headers);
    headers.set('accept', 'application/json');
    if (token !== undefined) headers.set('authorization', `Bearer ${token}`);
    return fetch(`${server.url}${path}`, { ...init, headers });
  };
  return {
    ...t,
    server,
    url: server.url,
    ada: ada as unknown as ApiTokensUser,
    bob: bob as unknown as ApiTokensUser,
    passwordClient,
    call,
    passwordToken: async (scope, user = ADA) => {
      const res = await fetch(`${server.url}/oauth/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          grant_type: 'password',
          client_id: passwordClient.client.id,
          client_secret: passwordClient.plainSecret!,
          username: user.email,
          password: user.password,
          scope,
        }),
      });
      if (res.status !== 200) throw new Error(`password grant failed: ${res.status} ${await res.text()}`);
      return ((await res.json()) as { access_token: string }).access_token;
    },
    stop: async () => {
      await server.close();
      await t.close();
    },
  };
}

function probeRoutes(app: Application): void {
  const r = app.router;
  r.get('/probe/all', (c) => c.json({ ok: true })).middleware(
    'api',
    'auth:api',
    'scopes:check-status,place-orders',
  );
  r.get('/probe/scopes-only', (c) => c.json({ ok: true })).middleware('scopes:check-status');
  r.get('/probe/machine', (c) => c.json({ client: currentAccessToken(c)?.clientId })).middleware('client');
  r.get('/probe/machine-status', (c) => c.json({ ok: true })).middleware('client:check-status');
  r.get('/probe/can', (c) => {
    const user = c.get('user') as unknown as ApiTokensUser;
    return c.json({ place: user.tokenCan('place-orders'), check: user.tokenCan('check-status') });
  }).middleware('api', 'auth:api');
}

/** A browser over a real socket: a cookie jar (attributes kept), manual redirects, same-origin forms. */
export class Browser extends CookieJar {
  constructor(readonly base: string) {
    super();
  }

  async request(path: string, init: RequestInit = {}): Promise<Response> {
    const headers = this.sendCookies(new Headers(init.headers));
    return this.keepCookies(await fetch(`${this.base}${path}`, { ...init, headers, redirect: 'manual' }));
  }

  async login(user: { email: string; password: string }): Promise<void> {
    const page = await this.request('/login');
    const res = await this.request('/login', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: this.base },
      body: new URLSearchParams({ _token: hiddenToken(await page.text()), ...user }),
    });
    if (res.status !== 302) throw new Error(`login failed: ${res.status}`);
  }

  /** Loads a page as the frontend's first request does; returns the `<meta name="csrf-token">`. */
  async page(path = '/dashboard'): Promise<string> {
    const res = await this.request(path);
    const html = await res.text();
    const meta = /<meta name="csrf-token" content="([^"]+)"/.exec(html);
    if (!meta) throw new Error(`No csrf-token meta on ${path} (${res.status}):\n${html.slice(0, 400)}`);
    return meta[1]!;
  }

  async logout(csrf: string): Promise<Response> {
    return this.request('/logout', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: this.base },
      body: new URLSearchParams({ _token: csrf }),
    });
  }

  /** A call as the frontend's fetch wrapper makes it (docs/protecting-routes.md). */
  api(path: string, headers: Record<string, string>, init: RequestInit = {}): Promise<Response> {
    return this.request(path, { ...init, headers: { accept: 'application/json', ...headers } });
  }
}

function hiddenToken(html: string): string {
  const match = /name="_token" value="([^"]+)"/.exec(html);
  if (!match) throw new Error(`No _token in the page:\n${html.slice(0, 400)}`);
  return match[1]!;
}

/** A GET to a protected route through oauth4webapi with a DPoP handle (its proof, its nonce). */
export function dpopGet(url: string, token: string, handle: DPoPHandle): Promise<Response> {
  return protectedResourceRequest(token, 'GET', new URL(url), new Headers(), null, {
    [allowInsecureRequests]: true,
    DPoP: handle,
  });
}
