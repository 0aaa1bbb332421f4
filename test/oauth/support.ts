import type { AddressInfo } from 'node:net';
import { createServer } from 'node:net';
import type * as oauth from 'oauth4webapi';
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
import type { Engine } from '../support/engines.js';
import { Browser } from './http-client.js';

export { approvalFields, Browser, basic, insecure, tokenIn, tokenRequest } from './http-client.js';

export const ADA = { name: 'Ada Lovelace', email: 'ada@example.com', password: 'correct horse battery' };
export const BOB = { name: 'Bob Babbage', email: 'bob@example.com', password: 'difference engine 2' };
export const REDIRECT = 'http://127.0.0.1:9999/callback';

/** `/oauth/authorize` for a code with the `check-status` scope, as a client sends it; `params` override. */
export const authorizePath = (clientId: string, params: Record<string, string> = {}) =>
  `/oauth/authorize?${new URLSearchParams({
    client_id: clientId,
    redirect_uri: REDIRECT,
    response_type: 'code',
    scope: 'check-status',
    state: 'xyz',
    ...params,
  })}`;

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
    /** The database engine (see test/support/engines.ts); default the process's one. */
    engine?: Engine;
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
    engine: options.engine,
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
